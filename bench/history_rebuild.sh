#!/usr/bin/env bash
# history_rebuild.sh — the history a CI job rebuilds from the data branch: `cgbench-history
# pull BRANCH DB` (fetch the branch holding FILES result files as runs/<run id>.json, unpack
# them, `cgbench import` them into a new database), side by side with `cgbench import DIR`
# of the same files alone (the database part of it).
#
# 1. One real `cgbench run --out` gives a template; FILES result files of BENCHES benchmarks
#    each are generated from it (bench/lib.sh result_files), and `cgbench-history push`
#    adds them to the branch cgbench-data of a bare repository (one commit).
# 2. Times, median of $RUNS (default 5), interleaved, each into a new database:
#      cgbench-history pull     from a clone whose fetched copy of the branch is deleted
#                               first, so every run fetches it as a fresh CI job does
#      cgbench import DIR       the unpacked files
#    Checks the database holds FILES runs.
#
# Usage: bench/history_rebuild.sh
# Env:   FILES=N (1000), BENCHES=N (20), RUNS=N (5), SKIP_BUILD=1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-5}"
bench_init
bench_build
export CGBENCH
history="$ROOT/scripts/cgbench-history.sh"

# 1. The files, on the branch of a bare repository; a clone to rebuild from.
result_set
git init -q --bare -b main "$TMP/origin.git"
git init -q -b main "$TMP/writer"
git -C "$TMP/writer" remote add origin "$TMP/origin.git"
git -C "$TMP/writer" -c user.name=bench -c user.email=bench@example.invalid \
    commit -q --allow-empty -m "project"
git -C "$TMP/writer" push -q origin main
(cd "$TMP/writer" && GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid \
    "$history" push cgbench-data "$TMP/results"/*.json) 2>"$TMP/push.log" ||
    { cat "$TMP/push.log" >&2; exit 1; }
git clone -q "$TMP/origin.git" "$TMP/job"
branch_bytes="$(git -C "$TMP/origin.git" count-objects -v | sed -n 's/^size-pack: //p')"
[ -n "$branch_bytes" ] && [ "$branch_bytes" != 0 ] ||
    branch_bytes="$(du -sk "$TMP/origin.git/objects" | cut -f1)"

# 2. The timings.
pull_new() {
    rm -f "$TMP/pulled.db"*
    git -C "$TMP/job" update-ref -d refs/cgbench-history/cgbench-data 2>/dev/null || true
    git -C "$TMP/job" gc -q --prune=now
    (cd "$TMP/job" && "$history" pull cgbench-data "$TMP/pulled.db")
}
import_new() { rm -f "$TMP/imported.db"*; "$CGBENCH" import -q --db "$TMP/imported.db" "$TMP/results"; }
import_new  # warm-up (page cache)
for _ in $(seq 1 "$RUNS"); do
    time_cmd "$TMP/t_pull" pull_new
    time_cmd "$TMP/t_import" import_new
done
runs="$(sqlite3 "$TMP/pulled.db" 'SELECT COUNT(*) FROM runs')"
[ "$runs" = "$FILES" ] || { echo "bench: the rebuilt database holds $runs runs, not $FILES" >&2; exit 1; }

bench_machine
echo "files:    $FILES result files x $BENCHES benchmarks ($(du -sh "$TMP/results" | cut -f1)), on branch cgbench-data: ${branch_bytes} KiB packed"
echo
printf '%-48s %9s\n' "rebuild of the database from $FILES result files" "seconds"
printf '%-48s %9.3f\n' "cgbench-history pull (fetch, unpack, import)" "$(median "$TMP/t_pull")"
printf '%-48s %9.3f\n' "cgbench import DIR (the files alone)" "$(median "$TMP/t_import")"
