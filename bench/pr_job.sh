#!/usr/bin/env bash
# pr_job.sh — the pull-request job before and after it became one command, side by side:
#
#   1. wall time of the whole PR job on the example suite: the bash flow (scripts/cgbench-pr.sh
#      as it was at BEFORE_REF, 91630e0: `cgbench run` per side, `compare` once per report
#      format, `export`) against `cgbench pr` (one process, one comparison, every report), on
#      a repository holding the example programs (built by a standalone CMake project: the base
#      in a worktree, the head in the checkout, from clean each time, as a CI job starts), the
#      runs interleaved (before after before after ...), median of $RUNS each;
#   2. on a small CMake project (absolute source paths in the debug info), how many of the
#      functions that moved are paired (a base and a head cost) in compare.json, before and
#      after;
#   3. the lines of shell of the flow, before and after;
#   4. wall time of `cgbench pr` on the example suite when main's run of the merge base is in
#      --history (the base neither built nor measured) against --no-reuse (the base built and
#      measured in a worktree), from a clean checkout each time, interleaved, median of $RUNS.
# Both flows run this build's cgbench for the measuring, so the difference is the flow's.
# Goal: after <= before (no slower); every function paired after; reuse <= 0.55 x rebuild.
#
# Usage: bench/pr_job.sh
# Env:   RUNS=N (default 3), BEFORE_REF=commit (default 91630e0), SKIP_BUILD=1,
#        PARTS="flow paired lines reuse" (the parts measured, default all)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-3}"
PARTS="${PARTS:-flow paired lines reuse}"
part() { [[ " $PARTS " == *" $1 "* ]]; }
bench_init
bench_build
BEFORE_REF="${BEFORE_REF:-91630e0}"

before="$TMP/cgbench-pr-before.sh"
git -C "$ROOT" show "$BEFORE_REF:scripts/cgbench-pr.sh" >"$before"
chmod +x "$before"
export CGBENCH  # the old script's way to find cgbench
unset GITHUB_BASE_REF GITHUB_HEAD_REF CI_MERGE_REQUEST_DIFF_BASE_SHA CI_MERGE_REQUEST_TARGET_BRANCH_SHA \
    CI_NODE_INDEX CI_NODE_TOTAL CGBENCH_THRESHOLD

git_in() { git -C "$1" -c user.name=bench -c user.email=bench@example.invalid "${@:2}"; }

# The example programs as a project of their own: examples/ and the region header, a CMake
# file that builds them without the rest of cgbench, commit 1 on main, a change on pr.
examples_repo() { # DIR
    local dir="$1"
    mkdir -p "$dir/include/cgbench"
    cp "$ROOT"/examples/*.c "$ROOT"/examples/*.cpp "$ROOT"/examples/*.py "$ROOT"/examples/cgbench.toml "$dir/"
    cp "$ROOT/include/cgbench/cgbench.h" "$dir/include/cgbench/"
    cat >"$dir/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(examples C CXX)
set(CMAKE_BUILD_TYPE RelWithDebInfo)
find_package(benchmark REQUIRED CONFIG)
add_library(cgbench_program_warnings INTERFACE)
add_library(regions INTERFACE)
target_include_directories(regions INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/include")
foreach(p memory_cache magic_squares varint workers sort_regions)
  file(GLOB src "${p}.c" "${p}.cpp")
  add_executable(${p} ${src})
  target_compile_options(${p} PRIVATE -O2 -g -fno-omit-frame-pointer)
  target_link_libraries(${p} PRIVATE regions)
endforeach()
foreach(p gbench_varint gbench_magic_squares)
  add_executable(${p} ${p}.cpp)
  target_compile_options(${p} PRIVATE -O2 -g -fno-omit-frame-pointer)
  target_link_libraries(${p} PRIVATE benchmark::benchmark)
endforeach()
configure_file(cgbench.toml "${CMAKE_CURRENT_BINARY_DIR}/cgbench.toml" COPYONLY)
configure_file(word_count.py "${CMAKE_CURRENT_BINARY_DIR}/word_count.py" COPYONLY)
CMAKE
    printf 'out/\ncgbench-pr/\n' >"$dir/.gitignore"
    git_in "$dir" init -q -b main
    git_in "$dir" add -A
    git_in "$dir" commit -q -m examples
    git_in "$dir" checkout -q -b pr
    echo "/* a change */" >>"$dir/varint.cpp"
    git_in "$dir" commit -q -am change
}
build_cmd='cmake -S . -B out -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build out -j 2 >/dev/null'

repo="$TMP/examples"
examples_repo "$repo"
# One PR job from a clean checkout: no build directory, no earlier output.
job() { # before|after
    rm -rf "$repo/out" "$repo/cgbench-pr"
    if [ "$1" = before ]; then
        (cd "$repo" && "$before" --base main --build "$build_cmd" --suite out/cgbench.toml)
    else
        (cd "$repo" && "$CGBENCH" pr --base main --build "$build_cmd" --suite out/cgbench.toml)
    fi
}

bench_machine
echo "suite:    the example suite ($(grep -c '^\[\[' "$ROOT/examples/cgbench.toml") entries), base and head built from clean"
echo

TIME_MAX_STATUS=1  # the gate may fail; the job still counts
if part flow; then
time_cmd "$TMP/warmup" job after
for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/before.times" job before
    time_cmd "$TMP/after.times" job after
done
# The report step alone, on the files the last job left: `compare` once per format and
# `export` (before) against one comparison (after); no build, no Valgrind.
for ((i = 0; i < 10 * RUNS; i++)); do
    time_cmd "$TMP/report-before.times" bash -c "cd '$repo' && '$before' --report-only"
    time_cmd "$TMP/report-after.times" bash -c "cd '$repo' && '$CGBENCH' pr --report-only"
done
b="$(median "$TMP/before.times")" a="$(median "$TMP/after.times")"
printf '%-34s %10s %10s\n' "PR job on the example suite" "wall s" "CPU s"
printf '%-34s %10.1f %10.1f\n' "before: bash flow ($BEFORE_REF)" "$b" "$(median "$TMP/before.times.cpu")"
printf '%-34s %10.1f %10.1f\n' "after:  cgbench pr" "$a" "$(median "$TMP/after.times.cpu")"
echo "after / before: $(ratio "$a" "$b") (goal <= 1: $(verdict "$a" "$b"))"
rb="$(median "$TMP/report-before.times")" ra="$(median "$TMP/report-after.times")"
printf '%-34s %10.3f %10.3f\n' "report step alone, before" "$rb" "$(median "$TMP/report-before.times.cpu")"
printf '%-34s %10.3f %10.3f\n' "report step alone, after" "$ra" "$(median "$TMP/report-after.times.cpu")"
echo
fi

if part reuse; then
# Main's CI measured the merge base (the tip of main) into the history, as on every push.
history="$TMP/main-history.db"
git_in "$repo" checkout -q main
rm -rf "$repo/out" && (cd "$repo" && bash -c "$build_cmd")
(cd "$repo" && "$CGBENCH" run -q --db "$history" --suite out/cgbench.toml) >/dev/null
git_in "$repo" checkout -q pr
pr_job() { # reuse|rebuild
    rm -rf "$repo/out" "$repo/cgbench-pr"
    local extra=()
    [ "$1" = rebuild ] && extra=(--no-reuse)
    (cd "$repo" && "$CGBENCH" pr --base main --build "$build_cmd" --suite out/cgbench.toml \
        --history "$history" "${extra[@]}")
}
time_cmd "$TMP/warmup" pr_job reuse
for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/rebuild.times" pr_job rebuild
    time_cmd "$TMP/reuse.times" pr_job reuse
done
if ! grep -q "reused from the history" "$repo/cgbench-pr/base-source"; then
    echo "bench: the base was not reused: $(cat "$repo/cgbench-pr/base-source")" >&2
    exit 1
fi
rb="$(median "$TMP/rebuild.times")" ru="$(median "$TMP/reuse.times")"
printf '%-34s %10s %10s\n' "PR job, example suite, --history" "wall s" "CPU s"
printf '%-34s %10.1f %10.1f\n' "base built (--no-reuse)" "$rb" "$(median "$TMP/rebuild.times.cpu")"
printf '%-34s %10.1f %10.1f\n' "base reused (main's run)" "$ru" "$(median "$TMP/reuse.times.cpu")"
echo "reused / built: $(ratio "$ru" "$rb") (goal <= 0.55: $(verdict "$(ratio "$ru" "$rb")" 0.55))"
echo "  $(cat "$repo/cgbench-pr/base-source")"
echo
fi

if part paired; then
# A CMake project: the functions that moved, paired or not.
cmake_repo="$TMP/cmake"
mkdir -p "$cmake_repo"
cat >"$cmake_repo/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(prog C)
add_executable(prog prog.c)
CMAKE
prog() { # EXTRA_PERCENT
    cat >"$cmake_repo/prog.c" <<C
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void accumulate(long n) { for (long i = 0; i < n; ++i) sink += (unsigned long)i * 2654435761UL; }
__attribute__((noinline)) static void checksum(long n) { for (long i = 0; i < n; ++i) sink ^= (unsigned long)i; }
int main(int argc, char** argv) { long n = argc > 1 ? atol(argv[1]) : 0; accumulate(n + n * $1 / 100); checksum(n); return 0; }
C
}
printf '[[bench]]\nname = "work"\ncommand = ["out/prog", "40000"]\n' >"$cmake_repo/cgbench.toml"
printf 'out/\ncgbench-pr/\n' >"$cmake_repo/.gitignore"
prog 0
git_in "$cmake_repo" init -q -b main && git_in "$cmake_repo" add -A && git_in "$cmake_repo" commit -q -m base
git_in "$cmake_repo" checkout -q -b pr && prog 10 && git_in "$cmake_repo" commit -q -am slower
cmake_build='cmake -S . -B out -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build out >/dev/null'
# "PAIRED of MOVED": functions with both costs among those that moved (without "(other)").
paired() { # before|after
    rm -rf "$cmake_repo/out" "$cmake_repo/cgbench-pr"
    local flow=("$CGBENCH" pr)
    [ "$1" = before ] && flow=("$before")
    (cd "$cmake_repo" && "${flow[@]}" --base main --build "$cmake_build") >/dev/null 2>&1 || true
    python3 - "$cmake_repo/cgbench-pr/compare.json" <<'PY'
import json, sys
moved = [f for b in json.load(open(sys.argv[1]))["benchmarks"] for f in b.get("functions_moved", [])
         if f["name"] != "(other)"]
print(f"{sum(f['base'] is not None and f['head'] is not None for f in moved)} of {len(moved)}")
PY
}
echo "CMake project (absolute paths): functions that moved, paired"
echo "  before: $(paired before)"
echo "  after:  $(paired after)"
echo
fi

if part lines; then
echo "lines of shell in the PR flow (scripts/cgbench-pr.sh)"
echo "  before: $(wc -l <"$before")"
echo "  after:  $(wc -l <"$ROOT/scripts/cgbench-pr.sh")"
fi
