#!/usr/bin/env bash
# flame.sh — what the differential flame graphs cost, side by side in one run:
#
#   1. wall time of `cgbench pr` on a small CMake project whose pull request makes one of
#      its two benchmarks 10% costlier (a regression): with the flame graph (the regressed
#      benchmark measured again under Callgrind on both sides, the SVG drawn) against
#      --no-flame, and against a pull request that regresses nothing (a comment-only change),
#      the three interleaved, from a clean checkout each time, median of $RUNS;
#   2. the time to rebuild the call trees and draw the differential flame graph of a
#      generated 10,000-function profile (bench_flame, best of 5), and of 100,000.
# Goal: the flame graph adds under 2 s to a PR job with one regression of a small program;
# a 10,000-function graph draws in under 100 ms.
#
# Usage: bench/flame.sh
# Env:   RUNS=N (default 5), SKIP_BUILD=1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
unset GITHUB_BASE_REF GITHUB_HEAD_REF CI_MERGE_REQUEST_DIFF_BASE_SHA CI_MERGE_REQUEST_TARGET_BRANCH_SHA \
    CI_NODE_INDEX CI_NODE_TOTAL CGBENCH_THRESHOLD
cmake --build "$BUILD" --target bench_flame -j2 >/dev/null

git_in() { git -C "$1" -c user.name=bench -c user.email=bench@example.invalid "${@:2}"; }

# prog.c with accumulate() doing N_EXTRA% more steps, and a comment COMMENT.
prog() { # EXTRA COMMENT
    cat <<C
/* $2 */
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void accumulate(long n) {
    for (long i = 0; i < n; ++i) sink += (unsigned long)i * 2654435761UL;
}
__attribute__((noinline)) static void checksum(long n) {
    for (long i = 0; i < n; ++i) sink ^= (unsigned long)i;
}
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 0;
    accumulate(n + n * $1 / 100);
    checksum(n);
    return 0;
}
C
}

# A repository on main, with branches "regress" (accumulate +10%) and "same" (a comment).
make_repo() { # DIR
    local dir="$1"
    mkdir -p "$dir"
    git_in "$dir" init -q -b main
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(prog C)\nadd_executable(prog prog.c)\n' \
        >"$dir/CMakeLists.txt"
    printf '#!/bin/sh\nset -e\ncmake -S . -B out -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null\ncmake --build out >/dev/null\n' \
        >"$dir/build.sh"
    chmod +x "$dir/build.sh"
    printf '[defaults]\nthreshold = "1%%"\n\n[[bench]]\nname = "work"\ncommand = ["out/prog", "40000"]\n\n[[bench]]\nname = "idle"\ncommand = ["out/prog", "0"]\n' \
        >"$dir/cgbench.toml"
    printf 'out/\ncgbench-pr/\n' >"$dir/.gitignore"
    prog 0 base >"$dir/prog.c"
    git_in "$dir" add -A && git_in "$dir" commit -q -m base
    git_in "$dir" checkout -q -b regress
    prog 10 base >"$dir/prog.c"
    git_in "$dir" commit -q -am regress
    git_in "$dir" checkout -q -b same main
    prog 0 "a comment" >"$dir/prog.c"
    git_in "$dir" commit -q -am same
}

make_repo "$TMP/repo"
# One PR job from a clean checkout of BRANCH.
job() { # BRANCH ARGS...
    local branch="$1"; shift
    rm -rf "$TMP/job"
    git clone -q --no-single-branch --branch "$branch" "$TMP/repo" "$TMP/job"
    git_in "$TMP/job" branch -q main origin/main 2>/dev/null || true
    (cd "$TMP/job" && "$CGBENCH" pr --base origin/main --build ./build.sh -q "$@")
}

bench_machine
echo
echo "1. cgbench pr, one benchmark of two regressed (accumulate +10%), clean checkout each run"
TIME_MAX_STATUS=1
for _ in $(seq "$RUNS"); do
    time_cmd "$TMP/flame" job regress
    test -s "$TMP/job/cgbench-pr/flame/work.svg" || { echo "bench: no flame graph drawn" >&2; exit 1; }
    time_cmd "$TMP/noflame" job regress --no-flame
    time_cmd "$TMP/none" job same
    test ! -e "$TMP/job/cgbench-pr/flame/work.svg" || { echo "bench: a graph without regression" >&2; exit 1; }
done
f="$(median "$TMP/flame")"; n="$(median "$TMP/noflame")"; z="$(median "$TMP/none")"
printf '   regression, flame graph drawn   %7.2f s\n' "$f"
printf '   regression, --no-flame          %7.2f s\n' "$n"
printf '   no regression                   %7.2f s\n' "$z"
extra="$(awk -v a="$f" -v b="$n" 'BEGIN { printf "%.2f", a - b }')"
printf '   the flame graph adds            %7.2f s (%s x the job without it)  %s\n' "$extra" \
    "$(ratio "$f" "$n")" "$(verdict "$extra" 2)"
echo
echo "2. call trees + differential flame graph of a generated profile (best of 5)"
"$BUILD/bench/bench_flame" --functions 10000 | sed 's/^/   /'
"$BUILD/bench/bench_flame" --functions 100000 | sed 's/^/   /'
