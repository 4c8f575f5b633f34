#!/usr/bin/env bash
# processes.sh — the wall-time cost of following every process, on a program that starts none.
#
# cgbench now runs Valgrind with --trace-children=yes and a file per process, under a keeper
# process that kills whatever the program leaves behind. This measures, interleaved, the
# median wall time of $RUNS runs of
#   base   BASE_CGBENCH run -q -- PROG            the cgbench before (one process, no keeper)
#   tree   cgbench run -q --warmup 0 -- PROG      every process traced (the default mode)
#   main   cgbench run -q --warmup 0 --processes main -- PROG
#   warm   cgbench run -q -- PROG                 the default, with its one native warm-up run
# Goal: tree / base <= 1.02. (The warm-up is a separate feature; `warm` shows what it adds.)
#
# Usage: BASE_CGBENCH=/path/to/old/cgbench bench/processes.sh [PROGRAM ARGS...]
#        default workload: build/examples/memory_cache random 1000000
#        Without BASE_CGBENCH, the merge base with BASE_REF (default main) is built in a
#        temporary git worktree first (slow: a full build).
# Env:   RUNS=N (default 5), SKIP_BUILD=1, BASE_REF=REF
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

GOAL=1.02
if [ $# -gt 0 ]; then prog=("$@"); else prog=("$EXAMPLES/memory_cache" random 1000000); fi

base="${BASE_CGBENCH:-}"
if [ -z "$base" ]; then
    ref="$(git -C "$ROOT" merge-base HEAD "${BASE_REF:-main}")"
    git -C "$ROOT" worktree add -q --detach "$TMP/base" "$ref"
    trap 'git -C "$ROOT" worktree remove --force "$TMP/base"; rm -rf "$TMP"' EXIT
    cmake -S "$TMP/base" -B "$TMP/base/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCGBENCH_BUILD_TESTS=OFF >"$TMP/base.log" 2>&1
    cmake --build "$TMP/base/build" -j "$(nproc)" --target cgbench >>"$TMP/base.log" 2>&1
    base="$TMP/base/build/src/cgbench"
fi

bench_machine
echo "base:     $("$base" --version | head -n1) ($base)"
echo "workload: ${prog[*]}"
echo

declare -A cmd
cmd[base]="$base run -q --no-db --"
cmd[tree]="$CGBENCH run -q --no-db --warmup 0 --"
cmd[main]="$CGBENCH run -q --no-db --warmup 0 --processes main --"
cmd[warm]="$CGBENCH run -q --no-db --"
order=(base tree main warm)

for k in "${order[@]}"; do
    # shellcheck disable=SC2086  # the command strings are split on purpose
    time_cmd "$TMP/warmup" ${cmd[$k]} "${prog[@]}"  # untimed: page cache, glibc probe cache
done
for ((i = 0; i < RUNS; i++)); do
    for k in "${order[@]}"; do
        # shellcheck disable=SC2086
        time_cmd "$TMP/$k.times" ${cmd[$k]} "${prog[@]}"
    done
done

printf '%-44s %10s  %s\n' "command" "median s" "all runs (s)"
for k in "${order[@]}"; do
    printf '%-44s %10s  %s\n' "$k: ${cmd[$k]#* run }" "$(median "$TMP/$k.times")" \
        "$(paste -sd' ' "$TMP/$k.times")"
done
b="$(median "$TMP/base.times")"
r="$(ratio "$(median "$TMP/tree.times")" "$b")"
printf '%-44s %10s  goal <= %s: %s\n' "ratio tree/base" "$r" "$GOAL" "$(verdict "$r" "$GOAL")"
printf '%-44s %10s\n' "ratio main/base" "$(ratio "$(median "$TMP/main.times")" "$b")"
printf '%-44s %10s\n' "ratio warm/base (with the warm-up run)" \
    "$(ratio "$(median "$TMP/warm.times")" "$b")"
