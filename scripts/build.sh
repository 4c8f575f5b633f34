#!/usr/bin/env bash
# Configures and builds cgbench (with tests) in ./build. Extra arguments go to CMake's
# configure step, e.g. scripts/build.sh -DCGBENCH_SANITIZE=ON. BUILD_DIR overrides ./build.
# Quiet on success; prints the build log when something fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
mkdir -p "$build"
log="$build/build.log"
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGBENCH_WERROR=ON "$@" &&
       cmake --build "$build" -j "$(nproc)"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "build.sh: build failed (log: $log)" >&2
  exit 1
fi
