#!/usr/bin/env bash
# gbench_isolation.sh — what per-benchmark isolation of Google Benchmark binaries costs.
#
# Measures `cgbench run -q --suite` over a suite of the two example Google Benchmark binaries
# (build/examples/gbench_varint and gbench_magic_squares, one [[gbench]] entry each: every
# benchmark in its own Callgrind process, default -j) against one whole-binary Cachegrind
# run of each binary with Google Benchmark's default options (iteration counts chosen from
# timings), one after the other, with the flags cgbench passes Cachegrind. Median wall time
# of $RUNS (default 5) runs each, interleaved A B A B ...
# Goal: median(cgbench) / median(whole runs) <= 3.
#
# Usage: bench/gbench_isolation.sh
# Env:   RUNS=N (default 5), SKIP_BUILD=1 (don't run scripts/build.sh)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

GOAL=3
binaries=("$EXAMPLES/gbench_varint" "$EXAMPLES/gbench_magic_squares")
{
    for b in "${binaries[@]}"; do printf '[[gbench]]\nbinary = "%s"\n\n' "$b"; done
} >"$TMP/cgbench.toml"

whole() {
    local b
    for b in "${binaries[@]}"; do
        # shellcheck disable=SC2054  # commas are part of the --I1/--D1/--LL values
        "$VALGRIND" --tool=cachegrind --cache-sim=yes --branch-sim=no --fair-sched=yes \
            --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
            --cachegrind-out-file="$TMP/cg.out" --log-file="$TMP/vg.log" -- "$b" || return 1
    done
}
cg=("$CGBENCH" run -q --suite "$TMP/cgbench.toml")

bench_machine
echo "binaries: ${binaries[*]##*/} ($("$CGBENCH" config show --suite "$TMP/cgbench.toml" |
    grep -c '^gbench') benchmarks)"
echo

time_cmd "$TMP/warmup" whole
time_cmd "$TMP/warmup" "${cg[@]}"
for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/whole.times" whole
    time_cmd "$TMP/cg.times" "${cg[@]}"
done

whole_med="$(median "$TMP/whole.times")"
cg_med="$(median "$TMP/cg.times")"
r="$(ratio "$cg_med" "$whole_med")"

printf '%-34s %10s  %s\n' "command" "median s" "all runs (s)"
printf '%-34s %10s  %s\n' "whole binaries under cachegrind" "$whole_med" \
    "$(paste -sd' ' "$TMP/whole.times")"
printf '%-34s %10s  %s\n' "cgbench run --suite ([[gbench]])" "$cg_med" \
    "$(paste -sd' ' "$TMP/cg.times")"
printf '%-34s %10s  goal <= %s: %s\n' "ratio cgbench/whole" "$r" "$GOAL" "$(verdict "$r" "$GOAL")"
