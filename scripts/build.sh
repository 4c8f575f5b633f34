#!/usr/bin/env bash
# Configures and builds cgbench (with tests) in ./build. Extra arguments go to CMake's
# configure step, e.g. scripts/build.sh -DCGBENCH_SANITIZE=ON. BUILD_DIR overrides ./build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCGBENCH_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
