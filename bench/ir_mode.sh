#!/usr/bin/env bash
# ir_mode.sh — cost of `--weights ir` (instruction counts only, no cache simulation) relative
# to running the program under Valgrind with no tool at all.
#
# Measures, median wall time of $RUNS (default 5) runs each, interleaved A B C A B C ...:
#   A  valgrind.bin --tool=none                      (Valgrind's core: JIT + dispatch)
#   B  valgrind.bin --tool=cachegrind --cache-sim=no (same flags cgbench passes; context:
#                                                     Cachegrind's own Ir instrumentation)
#   C  cgbench run -q --weights ir                   (what users run)
# Goal: median(C) / median(A) <= 2.3. B/A shows how much of that is Cachegrind itself, C/B
# what cgbench adds on top.
#
# Usage: bench/ir_mode.sh [PROGRAM ARGS...]
#        default workload: build/examples/memory_cache random 1000000
# Env:   RUNS=N (default 5), SKIP_BUILD=1 (don't run scripts/build.sh)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

GOAL=2.3
if [ $# -gt 0 ]; then prog=("$@"); else prog=("$EXAMPLES/memory_cache" random 1000000); fi

none=("$VALGRIND" --tool=none --log-file="$TMP/none.log" -- "${prog[@]}")
# shellcheck disable=SC2054  # commas are part of the --I1/--D1/--LL values
cgnosim=("$VALGRIND" --tool=cachegrind --cache-sim=no --branch-sim=no --fair-sched=yes
         --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
         --cachegrind-out-file="$TMP/cg.out" --log-file="$TMP/cg.log" -- "${prog[@]}")
cg=("$CGBENCH" run -q --weights ir -- "${prog[@]}")

bench_machine
echo "workload: ${prog[*]}"
echo

# Untimed warm-up: fills the page cache and cgbench's glibc probe cache.
time_cmd "$TMP/warmup" "${none[@]}"
time_cmd "$TMP/warmup" "${cgnosim[@]}"
time_cmd "$TMP/warmup" "${cg[@]}"

for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/none.times" "${none[@]}"
    time_cmd "$TMP/nosim.times" "${cgnosim[@]}"
    time_cmd "$TMP/cg.times" "${cg[@]}"
done

none_med="$(median "$TMP/none.times")"
nosim_med="$(median "$TMP/nosim.times")"
cg_med="$(median "$TMP/cg.times")"
r="$(ratio "$cg_med" "$none_med")"

printf '%-40s %9s %8s  %s\n' "command" "median s" "/none" "all runs (s)"
printf '%-40s %9s %8s  %s\n' "valgrind --tool=none" "$none_med" "1.000" \
    "$(paste -sd' ' "$TMP/none.times")"
printf '%-40s %9s %8s  %s\n' "valgrind --tool=cachegrind --cache-sim=no" "$nosim_med" \
    "$(ratio "$nosim_med" "$none_med")" "$(paste -sd' ' "$TMP/nosim.times")"
printf '%-40s %9s %8s  %s\n' "cgbench run -q --weights ir" "$cg_med" "$r" \
    "$(paste -sd' ' "$TMP/cg.times")"
echo
echo "cgbench ir / tool=none:        $r  (goal <= $GOAL: $(verdict "$r" "$GOAL"))"
echo "cachegrind no-sim / tool=none: $(ratio "$nosim_med" "$none_med")  (Cachegrind's own instrumentation)"
echo "cgbench ir / cachegrind no-sim: $(ratio "$cg_med" "$nosim_med")  (what cgbench adds)"
