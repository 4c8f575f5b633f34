#!/usr/bin/env bash
# overhead.sh — cgbench's wall-time overhead over bare Valgrind.
#
# Measures `cgbench run -q -- PROGRAM ARGS` against the same Cachegrind invocation run
# directly (/usr/bin/valgrind.bin with the flags cgbench uses: cache sim on, branch sim off,
# --fair-sched=yes, ci-default geometry), median wall time of $RUNS (default 5) runs each,
# interleaved A B A B ... so drift hits both sides alike.
# Goal: median(cgbench) / median(valgrind) <= 1.02.
#
# Usage: bench/overhead.sh [PROGRAM ARGS...]
#        default workload: build/examples/memory_cache random 1000000
# Env:   RUNS=N (default 5), SKIP_BUILD=1 (don't run scripts/build.sh)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

GOAL=1.02
if [ $# -gt 0 ]; then prog=("$@"); else prog=("$EXAMPLES/memory_cache" random 1000000); fi

# shellcheck disable=SC2054  # commas are part of the --I1/--D1/--LL values
vg=("$VALGRIND" --tool=cachegrind --cache-sim=yes --branch-sim=no --fair-sched=yes
    --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
    --cachegrind-out-file="$TMP/cg.out" --log-file="$TMP/vg.log" -- "${prog[@]}")
cg=("$CGBENCH" run -q -- "${prog[@]}")

bench_machine
echo "workload: ${prog[*]}"
echo

# Untimed warm-up: fills the page cache and cgbench's glibc probe cache.
time_cmd "$TMP/warmup" "${vg[@]}"
time_cmd "$TMP/warmup" "${cg[@]}"

for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/vg.times" "${vg[@]}"
    time_cmd "$TMP/cg.times" "${cg[@]}"
done

vg_med="$(median "$TMP/vg.times")"
cg_med="$(median "$TMP/cg.times")"
r="$(ratio "$cg_med" "$vg_med")"

printf '%-26s %10s  %s\n' "command" "median s" "all runs (s)"
printf '%-26s %10s  %s\n' "valgrind (cachegrind)" "$vg_med" "$(paste -sd' ' "$TMP/vg.times")"
printf '%-26s %10s  %s\n' "cgbench run -q" "$cg_med" "$(paste -sd' ' "$TMP/cg.times")"
printf '%-26s %10s  goal <= %s: %s\n' "ratio cgbench/valgrind" "$r" "$GOAL" "$(verdict "$r" "$GOAL")"
