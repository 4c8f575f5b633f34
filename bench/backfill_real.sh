#!/usr/bin/env bash
# backfill_real.sh — `cgbench backfill` of a real project's past commits: wall time, the
# time per commit (build and measurement), the same backfill again (every commit in the
# history: nothing built), and the steps `cgbench steps` then finds.
#
# The project is a C compression tool built with make (lz4 by default): a clone of REPO is
# made in a temporary directory, and a suite that is not committed (as a new user's first
# cgbench.toml) measures the tool compressing a fixed 1 MiB input at two levels and
# decompressing it. The input is made once from the clone's own sources at its newest
# commit, so every commit reads the same bytes.
#
# Usage: REPO=/path/to/lz4 bench/backfill_real.sh
# Env:   REPO      a clone (or bare mirror) of the project; required
#        RANGE     the commits (default v1.9.4..dev), EVERY and LAST (default 12 and 20):
#                  every EVERYth first-parent commit of RANGE, the newest LAST of them
#        BUILD_COMMAND the build command (default: make -j2 lz4 HAVE_MULTITHREAD=0: one thread,
#                  so counts repeat), TOOL the program it builds
#                  (default programs/lz4), SKIP_BUILD=1, BUILD_DIR
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
: "${REPO:?set REPO to a clone of the project (e.g. lz4)}"
RANGE="${RANGE:-v1.9.4..dev}"
EVERY="${EVERY:-12}"
LAST="${LAST:-20}"
BUILD_CMD="${BUILD_COMMAND:-make -j2 lz4 HAVE_MULTITHREAD=0}"
TOOL="${TOOL:-programs/lz4}"

clone="$TMP/project"
git clone -q "$REPO" "$clone"
branch="${RANGE##*..}"
git -C "$clone" checkout -q "$branch"
# A fixed 1 MiB input: the sources of the newest commit, repeated.
find "$clone/lib" "$clone/programs" -name '*.[ch]' -print0 | sort -z | xargs -0 cat >"$TMP/src.txt"
while [ "$(stat -c %s "$TMP/input.bin" 2>/dev/null || echo 0)" -lt 1048576 ]; do
    cat "$TMP/src.txt" >>"$TMP/input.bin"
done
truncate -s 1048576 "$TMP/input.bin"
(cd "$clone" && $BUILD_CMD >/dev/null 2>&1)
"$clone/$TOOL" -q -1 -f "$TMP/input.bin" "$TMP/input.lz4"
cat >"$clone/cgbench.toml" <<TOML
[[bench]]
name = "compress/1"
command = ["$TOOL", "-1", "-c", "$TMP/input.bin"]

[[bench]]
name = "compress/9"
command = ["$TOOL", "-9", "-c", "$TMP/input.bin"]

[[bench]]
name = "decompress"
command = ["$TOOL", "-d", "-c", "$TMP/input.lz4"]
TOML

run_backfill() {
    local t0 t1 rc=0
    t0="$(date +%s.%N)"
    (cd "$clone" && "$CGBENCH" backfill "$RANGE" --every "$EVERY" --last "$LAST" \
        --build "$BUILD_CMD >/dev/null" --format json) >"$1" 2>"$1.err" || rc=$?
    t1="$(date +%s.%N)"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }' >"$1.wall"
    echo "$rc" >"$1.rc"
}
run_backfill "$TMP/first.json"
run_backfill "$TMP/again.json"

bench_machine "each backfill once"
echo "project:  $(git -C "$clone" remote get-url origin), $RANGE: $(git -C "$clone" rev-list --first-parent --count "$RANGE") first-parent commits, every $EVERY, the newest $LAST"
echo "suite:    compress -1, compress -9 and decompress of 1 MiB; build: $BUILD_CMD"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$TMP/first.json" "$TMP/again.json" <<'PY'
import json, sys
for label, path in (("backfill", sys.argv[1]), ("again", sys.argv[2])):
    doc = json.load(open(path))
    wall = open(path + ".wall").read()
    rc = open(path + ".rc").read().strip()
    c = doc["commits"]
    done = [x["seconds"] for x in c if x["outcome"] in ("measured", "benchmark failed")]
    per = sum(done) / len(done) if done else 0
    totals = ", ".join(f"{n} {k}" for k, n in doc["totals"].items() if n)
    print(f"{label:9} {wall:>7} s wall, exit {rc}: {len(c)} commits ({totals}); "
          f"{per:.1f} s per measured commit (build and measure)")
doc = json.load(open(sys.argv[1]))
print()
print(f"{'commit':9} {'committed':26} {'outcome':16} {'s':>6}  subject")
for x in doc["commits"]:
    print(f"{x['commit'][:7]:9} {x['commit_time'] or '-':26} {x['outcome']:16} "
          f"{x['seconds']:6.1f}  {x['subject'][:60]}")
PY
echo
(cd "$clone" && "$CGBENCH" steps)
