#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test (unit and
# end-to-end, real Valgrind) with ctest. Extra arguments go to ctest (e.g. -R parser).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh" --tests
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
