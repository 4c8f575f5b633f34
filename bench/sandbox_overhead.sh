#!/usr/bin/env bash
# sandbox_overhead.sh — what the sandbox (exec/sandbox.hpp) costs in wall time per run.
# Side by side, interleaved, RUNS times each (median and minimum):
#   with        cgbench run --no-db -q --warmup W -- tests/programs/workload 1
#   without     the same through tests/programs/no_namespaces, where the kernel refuses user
#               namespaces (cgbench then stages as it did before the sandbox)
# for W = 0 (the probe cgbench makes once per process, plus the measured run) and W = 1 (one
# native run more). The difference at W=0 is the cost of an invocation; the growth of the
# difference from W=0 to W=1 is the cost of one more sandboxed run (setting up the
# namespaces and the new root, and tearing them down). On a loaded machine one run's spread
# hides that; so W = MANY (100) too: the minimum growth from W=0 to W=MANY, divided by MANY,
# is what one native run of the program costs with and without the sandbox, and their
# difference the sandbox's cost per run, in wall time and in CPU time (user + system of
# cgbench and everything it ran, which a loaded machine inflates less).
#
# Usage: bench/sandbox_overhead.sh            (RUNS=21, MANY=100 by default; SKIP_BUILD=1)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
RUNS="${RUNS:-21}"
MANY="${MANY:-100}"
bench_build
bench_machine "median and minimum of $RUNS, interleaved"
echo
cd "$TMP"
for w in 0 1 "$MANY"; do
  for i in $(seq "$RUNS"); do
    time_cmd "$TMP/with-$w" "$CGBENCH" run --no-db -q --warmup "$w" -- "$PROGRAMS/workload" 1
    time_cmd "$TMP/without-$w" "$PROGRAMS/no_namespaces" "$CGBENCH" run --no-db -q --warmup "$w" \
      -- "$PROGRAMS/workload" 1
  done
done
ms() { awk '{ printf "%.1f", $1 * 1000 }'; }
minimum() { sort -g "$1" | head -1; }
printf '%-28s %12s %12s %12s\n' "" "with (ms)" "without (ms)" "difference"
for w in 0 1; do
  a=$(median "$TMP/with-$w"); b=$(median "$TMP/without-$w")
  printf '%-28s %12s %12s %12s\n' "--warmup $w, median" "$(echo "$a" | ms)" "$(echo "$b" | ms)" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f", (a - b) * 1000 }')"
  a=$(minimum "$TMP/with-$w"); b=$(minimum "$TMP/without-$w")
  printf '%-28s %12s %12s %12s\n' "--warmup $w, minimum" "$(echo "$a" | ms)" "$(echo "$b" | ms)" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f", (a - b) * 1000 }')"
done
d0=$(awk -v a="$(median "$TMP/with-0")" -v b="$(median "$TMP/without-0")" 'BEGIN { print a - b }')
d1=$(awk -v a="$(median "$TMP/with-1")" -v b="$(median "$TMP/without-1")" 'BEGIN { print a - b }')
echo
echo "one sandboxed run (median, from --warmup 0 to 1): $(awk -v a="$d1" -v b="$d0" 'BEGIN { printf "%+.1f ms", (a - b) * 1000 }')"
per_run() {  # WHICH [.cpu]: the minimum growth from --warmup 0 to MANY, per run, in ms
  awk -v a="$(minimum "$TMP/$1-$MANY$2")" -v b="$(minimum "$TMP/$1-0$2")" -v n="$MANY" \
    'BEGIN { printf "%.2f", (a - b) * 1000 / n }'
}
for kind in wall cpu; do
  sfx=""; [ "$kind" = cpu ] && sfx=".cpu"
  pw=$(per_run with "$sfx"); po=$(per_run without "$sfx")
  echo "one native run of the program, $kind time (minimum, from --warmup 0 to $MANY, per run):" \
    "with ${pw} ms, without ${po} ms: the sandbox costs $(awk -v a="$pw" -v b="$po" 'BEGIN { printf "%+.2f", a - b }') ms per run"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
