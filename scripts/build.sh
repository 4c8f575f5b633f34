#!/usr/bin/env bash
# Configures and builds cgbench in ./build (BUILD_DIR overrides it): everything, tests
# included, or with --target only the targets named (scripts/run-examples.sh builds
# `cgbench` and `examples`). --deps SET picks what scripts/install-deps.sh installs first
# (default: everything the tests need; `--deps examples` for the main job). Other arguments go
# to CMake's configure step, e.g. scripts/build.sh -DCGBENCH_SANITIZE=ON.
# Prints a line per stage and the compiler's progress ("[ 42%] ..."); the whole log when
# something fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

deps=()
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=("--$2"); shift 2 ;;
    --target) targets+=(--target "$2"); shift 2 ;;
    *) break ;;
  esac
done
say() { echo "build.sh: $*" >&2; }

"$root/scripts/install-deps.sh" "${deps[@]}"
mkdir -p "$build"
log="$build/build.log"
failed() {
  cat "$log" >&2
  say "error: $1 failed (log: $log)"
  exit 1
}
start=$SECONDS
say "configuring $build (RelWithDebInfo)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGBENCH_WERROR=ON "$@" \
  >"$log" 2>&1 || failed "configuring"
what="everything"
if [ ${#targets[@]} -gt 0 ]; then
  what="$(printf '%s\n' "${targets[@]}" | grep -v -- --target | paste -sd' ')"
fi
say "building $what with $(nproc) jobs"
# The compiler's progress lines as they come, indented; make's own chatter only in the log.
if ! cmake --build "$build" -j "$(nproc)" "${targets[@]}" 2>&1 | tee -a "$log" |
    sed -un 's/^\(\[ *[0-9]*%\] \)/  \1/p' >&2; then
  failed "building"
fi
say "built $what in $((SECONDS - start)) s"
