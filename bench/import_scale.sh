#!/usr/bin/env bash
# import_scale.sh — `cgbench import` of many result files: rebuilding a history database from
# FILES result files of BENCHES benchmarks each (default 1,000 x 20), as a CI job rebuilds it
# from result files kept on a data branch.
#
# 1. One real `cgbench run --out` gives a template result file (one benchmark with its
#    functions); SQL (sqlite3's readfile/writefile and JSON functions) writes FILES result
#    files from it, each a run of its own (id, start time, commit) with BENCHES benchmarks
#    bench/0000, bench/0001, ...
# 2. Times, median of $RUNS (default 5), interleaved:
#      import DIR (new database)     one process, the runs in batched transactions
#      import DIR (all present)      the same files again: every run is skipped
#    and once: one `cgbench import FILE` process per file (a transaction each), what a
#    script calling cgbench per file costs.
# Prints files/s and results/s, and checks the database holds FILES runs and
# FILES x BENCHES results.
#
# Usage: bench/import_scale.sh
# Env:   FILES=N (1000), BENCHES=N (20), RUNS=N (5), SKIP_BUILD=1, PER_FILE=0 skips the
#        one-process-per-file timing
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-5}"
bench_init
bench_build

# 1. The template and the files.
files="$TMP/results"
t0="$(date +%s.%N)"
result_set
t1="$(date +%s.%N)"
bytes="$(du -sb "$files" | cut -f1)"

# 2. The timings.
import_new() { rm -f "$TMP/new.db"*; "$CGBENCH" import -q --db "$TMP/new.db" "$files"; }
import_again() { "$CGBENCH" import -q --db "$TMP/new.db" "$files"; }
import_new  # warm-up (page cache)
for _ in $(seq 1 "$RUNS"); do
    time_cmd "$TMP/t_new" import_new
    time_cmd "$TMP/t_again" import_again
done
runs="$(sqlite3 "$TMP/new.db" 'SELECT COUNT(*) FROM runs')"
results="$(sqlite3 "$TMP/new.db" 'SELECT COUNT(*) FROM results')"
per_file=""
if [ "${PER_FILE:-1}" = 1 ]; then
    rm -f "$TMP/each.db"*
    t2="$(date +%s.%N)"
    for f in "$files"/*.json; do "$CGBENCH" import -q --db "$TMP/each.db" "$f"; done
    t3="$(date +%s.%N)"
    per_file="$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.3f", b - a }')"
fi

bench_machine
echo "files:    $FILES result files x $BENCHES benchmarks, $bytes bytes, made (template run included) in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
echo "stored:   $runs runs, $results results (expected $FILES and $((FILES * BENCHES)))"
[ "$runs" = "$FILES" ] && [ "$results" = "$((FILES * BENCHES))" ] || { echo "bench: wrong counts" >&2; exit 1; }
echo
printf '%-36s %9s %10s %12s\n' "command" "seconds" "files/s" "results/s"
row() {
    printf '%-36s %9.3f %10.0f %12.0f\n' "$1" "$2" "$(awk -v s="$2" -v n="$FILES" 'BEGIN { print n / s }')" \
        "$(awk -v s="$2" -v n="$((FILES * BENCHES))" 'BEGIN { print n / s }')"
}
row "import DIR (new database)" "$(median "$TMP/t_new")"
row "import DIR (every run present)" "$(median "$TMP/t_again")"
if [ -n "$per_file" ]; then row "import FILE, one process per file" "$per_file"; fi
