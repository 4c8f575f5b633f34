# shellcheck shell=bash
# shellcheck disable=SC2034  # variables are used by the scripts that source this
# Shared helpers for the bench/*.sh scripts. Sourced, not run.
#   bench_init            sets ROOT, BUILD (BUILD_DIR, default ROOT/build), CGBENCH, VALGRIND,
#                         EXAMPLES, PROGRAMS (the test programs), RUNS, a temp dir TMP (removed
#                         on exit), CGBENCH_DB (a history database in TMP)
#   bench_build           builds via scripts/build.sh, quietly (log shown only on failure);
#                         SKIP_BUILD=1 skips it
#   bench_machine [RUNS]  prints machine, valgrind and cgbench versions, and how runs are
#                         combined (RUNS; default "median of $RUNS, interleaved")
#   time_cmd OUT CMD...   runs CMD (stdout to /dev/null, stderr to $TMP/last.err), appends wall
#                         seconds to file OUT and CPU seconds (user + system, the command and
#                         its children) to OUT.cpu; aborts with the stderr if CMD exits with more
#                         than $TIME_MAX_STATUS (default 0; 1 for a gate that may fail)
#   median FILE           median of the numbers in FILE (one per line)
#   result_files TEMPLATE DIR FILES BENCHES
#                         writes FILES result files into DIR, each a run of its own (id,
#                         start time, commit) with BENCHES benchmarks bench/0000... copied
#                         from the first benchmark of the result file TEMPLATE (sqlite3)
#   result_set            FILES (1000) result files of BENCHES (20) benchmarks each in
#                         $TMP/results, from a template run of tests/programs/workload
#                         ($TMP/template.json); needs the sqlite3 CLI
#   ratio A B             A/B with 3 decimals

bench_init() {
    ROOT="$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)"
    BUILD="${BUILD_DIR:-$ROOT/build}"
    CGBENCH="$BUILD/src/cgbench"
    VALGRIND="${VALGRIND_BIN:-/usr/bin/valgrind.bin}"
    EXAMPLES="$BUILD/examples"
    PROGRAMS="$BUILD/tests/programs"
    RUNS="${RUNS:-5}"
    TMP="$(mktemp -d "${TMPDIR:-/tmp}/cgbench-bench.XXXXXX")"
    trap 'rm -rf "$TMP"' EXIT
    # Bench runs are recorded like any run, but not into the project's own history.
    export CGBENCH_DB="$TMP/history.db"
}

bench_build() {
    if [ "${SKIP_BUILD:-0}" = 1 ]; then return; fi
    if ! "$ROOT/scripts/build.sh" >"$TMP/build.log" 2>&1; then
        echo "bench: build failed (scripts/build.sh):" >&2
        tail -n 40 "$TMP/build.log" >&2
        exit 1
    fi
}

bench_machine() {
    local cpu
    cpu="$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
    echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr)"
    echo "valgrind: $("$VALGRIND" --version) ($VALGRIND)"
    echo "cgbench:  $("$CGBENCH" --version 2>/dev/null | head -n1) ($CGBENCH)"
    echo "runs:     ${1:-median of $RUNS, interleaved}"
}

time_cmd() {
    local out="$1"; shift
    local t0 t1 rc=0 TIMEFORMAT='%U %S'
    t0="$(date +%s.%N)"
    { time "$@" >/dev/null 2>"$TMP/last.err"; } 2>"$TMP/last.cpu" || rc=$?
    t1="$(date +%s.%N)"
    if [ "$rc" -gt "${TIME_MAX_STATUS:-0}" ]; then
        echo "bench: command failed with status $rc: $*" >&2
        tail -n 20 "$TMP/last.err" >&2
        exit 1
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' >>"$out"
    awk '{ printf "%.4f\n", $1 + $2 }' "$TMP/last.cpu" >>"$out.cpu"
}

median() {
    sort -g "$1" | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) printf "%.4f\n", v[(NR + 1) / 2]
        else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a / b }'
}

# verdict VALUE GOAL: "ok" when VALUE <= GOAL, else "OVER GOAL"
verdict() {
    awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "ok" : "OVER GOAL" }'
}

result_files() {
    local template="$1" dir="$2" files="$3" benches="$4"
    mkdir -p "$dir"
    sqlite3 -bail :memory: >/dev/null <<SQL
CREATE TABLE tpl AS SELECT CAST(readfile('$template') AS TEXT) AS doc;
WITH RECURSIVE f(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM f WHERE n < $files),
b(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM b WHERE j < $benches - 1)
SELECT writefile(printf('$dir/%05d.json', f.n),
    json_set(t.doc,
        '\$.run.id', strftime('%Y%m%dT%H%M%SZ', 1767225600 + f.n * 60, 'unixepoch') || printf('-%08x', f.n),
        '\$.run.started', strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + f.n * 60, 'unixepoch'),
        '\$.run.git.commit', printf('%08x%032x', f.n, f.n),
        '\$.benchmarks', (SELECT json_group_array(
            json_set(json_extract(t.doc, '\$.benchmarks[0]'), '\$.name', printf('bench/%04d', b.j),
                     '\$.position', b.j)) FROM b)))
FROM f, tpl t;
SQL
}

result_set() {
    FILES="${FILES:-1000}"
    BENCHES="${BENCHES:-20}"
    command -v sqlite3 >/dev/null ||
        { echo "bench: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 1; }
    "$CGBENCH" run -q --no-db --name template --out "$TMP/template.json" -- \
        "$PROGRAMS/workload" 2000
    result_files "$TMP/template.json" "$TMP/results" "$FILES" "$BENCHES"
}
