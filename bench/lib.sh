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
#   scale_history REPO BENCHES COMMITS [SHUFFLE]
#                         a repository and its SQLite history of BENCHES x COMMITS results
#                         (see the function)
#   time_commands CMD...  each "LABEL|COMMAND" once to warm up, then $RUNS rounds interleaved,
#                         times in $TMP/t0, $TMP/t1... (time_cmd)
#   print_times GOAL STEPS_GOAL CMD...
#                         the table of time_commands' medians (wall and CPU ms) with each
#                         command's goal: STEPS_GOAL for a label "steps..." of every
#                         benchmark, else GOAL

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

# scale_history REPO BENCHES COMMITS [SHUFFLE]
#                       a git repository REPO of COMMITS commits on main (git fast-import)
#                       and its SQLite history REPO/.cgbench/history.db of one run per commit
#                       with BENCHES results each (1000 x 1000: a million), from one real
#                       `cgbench run` of tests/programs/workload as template: names
#                       bench/0000..., Ir varied per commit (each benchmark a one-commit blip
#                       at every 20th commit, so about 10% change between two commits, and one
#                       lasting step of 40 to 360 units at a commit of its own between 100 and
#                       900), cost and l1_hits consistent with it, the template's functions
#                       and source lines (the costliest carrying the change), each run with its
#                       commit's facts.
#                       SHUFFLE: the SQL expression of the commit number c.n that orders the
#                       start times (default c.n, commit order). An existing history is kept
#                       as it is. Needs the sqlite3 CLI.
scale_history() {
    local repo="$1" benches="$2" commits="$3" shuffle="${4:-c.n}"
    local db="$repo/.cgbench/history.db"
    [ -e "$db" ] && return
    command -v sqlite3 >/dev/null ||
        { echo "bench: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 1; }
    # 1. COMMITS commits on main, one minute apart.
    git init -q -b main "$repo"
    for i in $(seq 1 "$commits"); do
        printf 'commit refs/heads/main\ncommitter b <b@example.com> %d +0000\ndata 3\nc%02d\n\n' \
            $((1767225600 + i * 60)) $((i % 100))
    done | git -C "$repo" fast-import --quiet
    git -C "$repo" rev-list --reverse main | awk '{ print NR "," $1 }' >"$TMP/commits.csv"

    # 2. The template: one real run, at HEAD.
    (cd "$repo" && "$CGBENCH" run -q --db "$db" --name template -- \
        "$PROGRAMS/workload" 2000)
    sqlite3 -bail "$db" >/dev/null <<SQL
CREATE TEMP TABLE commits (n INTEGER PRIMARY KEY, hash TEXT NOT NULL);
.import --csv $TMP/commits.csv commits
CREATE TEMP TABLE tpl AS
    SELECT r.fingerprint_key AS key, r.fingerprint AS fp, s.* FROM runs r
    JOIN results s ON s.run = r.seq WHERE s.name = 'template';
CREATE TEMP TABLE tplf AS
    SELECT f.rank, f.symbol, f.cost, f.ir FROM result_functions f
    JOIN tpl t ON t.run = f.run AND t.position = f.position;
CREATE TEMP TABLE tpll AS
    SELECT l.rank, l.symbol, l.line, l.text, l.cost, l.ir FROM result_lines l
    JOIN tpl t ON t.run = l.run AND t.position = l.position;
DELETE FROM result_functions;
DELETE FROM result_lines;
DELETE FROM results;
DELETE FROM runs;
BEGIN;
INSERT INTO runs (seq, id, started, recorded, git_commit, git_branch, git_dirty,
                  fingerprint_key, fingerprint, warnings, commit_time, author_time, parents,
                  subject, first_parent_depth, shallow)
SELECT c.n, strftime('%Y%m%dT%H%M%SZ', 1767225600 + c.n * 60, 'unixepoch') || printf('-%08x', c.n),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + $shuffle * 60, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + c.n * 60, 'unixepoch'),
       c.hash, 'main', 0, t.key, t.fp, '[]',
       strftime('%Y-%m-%dT%H:%M:%S+00:00', 1767225600 + c.n * 60, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%S+00:00', 1767225600 + c.n * 60, 'unixepoch'),
       coalesce(p.hash, ''), printf('c%02d', c.n % 100), c.n, 0
FROM commits c CROSS JOIN tpl t LEFT JOIN commits p ON p.n = c.n - 1;
CREATE TEMP TABLE v AS
    WITH RECURSIVE b(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM b WHERE j < $benches - 1)
    SELECT c.n AS run, b.j AS pos, printf('bench/%04d', b.j) AS name,
           b.j * 1000 + ((c.n * 7 + b.j * 13) % 20 = 0) * (b.j % 5 + 1) * 1500
               + (c.n >= 100 + (b.j * 37) % 800) * (b.j % 9 + 1) * 40 AS delta
    FROM commits c, b;
INSERT INTO results (run, position, name, status, tool, cost, ir, i1mr, ilmr, dr, d1mr, dlmr,
                     dw, d1mw, dlmw, bc, bcm, bi, bim, l1_hits, ll_hits, ram_hits, data)
SELECT v.run, v.pos, v.name, 'ok', t.tool, t.cost + v.delta, t.ir + v.delta, t.i1mr, t.ilmr,
       t.dr, t.d1mr, t.dlmr, t.dw, t.d1mw, t.dlmw, t.bc, t.bcm, t.bi, t.bim,
       t.l1_hits + v.delta, t.ll_hits, t.ram_hits,
       json_set(t.data, '\$.name', v.name, '\$.events.Ir', t.ir + v.delta,
                '\$.derived.l1_hits', t.l1_hits + v.delta, '\$.cost', t.cost + v.delta)
FROM v, tpl t ORDER BY v.run, v.pos;
INSERT INTO result_functions (run, position, rank, symbol, cost, ir)
SELECT v.run, v.pos, f.rank, f.symbol, f.cost + (f.rank = 0) * v.delta,
       f.ir + (f.rank = 0) * v.delta
FROM v, tplf f ORDER BY v.run, v.pos, f.rank;
INSERT INTO result_lines (run, position, rank, symbol, line, text, cost, ir)
SELECT v.run, v.pos, l.rank, l.symbol, l.line, l.text, l.cost + (l.rank = 0) * v.delta,
       l.ir + (l.rank = 0) * v.delta
FROM v, tpll l ORDER BY v.run, v.pos, l.rank;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
}

time_commands() {
    local c i
    # shellcheck disable=SC2086  # each command is split into its words
    for c in "$@"; do time_cmd "$TMP/warmup" ${c#*|}; done
    for _ in $(seq 1 "$RUNS"); do
        i=0
        # shellcheck disable=SC2086
        for c in "$@"; do time_cmd "$TMP/t$i" ${c#*|}; i=$((i + 1)); done
    done
}

print_times() {
    local goal="$1" steps_goal="$2" i=0 c ms cpu label g
    shift 2
    printf '%-40s %10s %8s  %s\n' "command" "median ms" "CPU ms" "goal"
    for c in "$@"; do
        ms="$(awk -v s="$(median "$TMP/t$i")" 'BEGIN { printf "%.1f", s * 1000 }')"
        cpu="$(awk -v s="$(median "$TMP/t$i.cpu")" 'BEGIN { printf "%.1f", s * 1000 }')"
        label="${c%%|*}"
        g="$goal"
        case "$label" in "steps"|"steps --format json"|"steps ("*) g="$steps_goal" ;; esac
        printf '%-40s %10s %8s  <= %s ms %s\n' "$label" "$ms" "$cpu" "$g" "$(verdict "$ms" "$g")"
        i=$((i + 1))
    done
}
