#!/usr/bin/env bash
# in-platform.sh — runs a bench/ script inside the root of a platform lane
# (tests/roots/test_second_platform.sh: trixie, Debian 13, Valgrind 3.24; forky, Debian
# testing, Valgrind 3.27), on the cgbench that lane built there. Run the lane once first
# (CGBENCH_SECOND_PLATFORM=1 or CGBENCH_TESTING_PLATFORM=1, ctest -L platform in BUILD);
# needs root.
#
# The host's build tree is bound at /host-build (its programs, built on the host, can be
# measured in the root too).
# Usage: bench/in-platform.sh SUITE SCRIPT [ARGS...]   e.g. bench/in-platform.sh forky region_tools.sh
# Env:   BUILD (default ./build: the host build tree holding tests/roots/), RUNS, N, ...
#        (passed through)
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${BUILD:-$root_dir/build}" && pwd)"
suite="${1:?usage: bench/in-platform.sh SUITE SCRIPT [ARGS...]}"
script="${2:?usage: bench/in-platform.sh SUITE SCRIPT [ARGS...]}"
shift 2
roots="$build/tests/roots"
if ! [ -x "$roots/$suite-build/src/cgbench" ]; then
  echo "bench: no $suite build in $roots (run its lane once: ctest -L platform in $build)" >&2
  exit 1
fi
passed=()
for v in RUNS N FILES BENCHES OUT_NAME; do
  if [ -n "${!v:-}" ]; then passed+=(--env "$v=${!v}"); fi
done
exec "$root_dir/tests/roots/in-root.sh" "$roots/$suite" --bind "$root_dir:/src" \
  --bind "$roots/$suite-build:/build" --bind "$build:/host-build" --env BUILD_DIR=/build --env SKIP_BUILD=1 "${passed[@]}" \
  -- bash "/src/bench/$script" "$@"
