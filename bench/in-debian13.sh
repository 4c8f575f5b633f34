#!/usr/bin/env bash
# in-debian13.sh — runs a bench/ script inside the Debian 13 root of the second-platform lane
# (tests/roots/test_second_platform.sh: Valgrind 3.24, glibc 2.41, g++ 14), on the cgbench
# that lane built there. Run the lane once first (CGBENCH_SECOND_PLATFORM=1 ctest -L platform
# in BUILD); needs root.
#
# The host's build tree is bound at /host-build (its programs, built on the host, can be
# measured in the root too).
# Usage: bench/in-debian13.sh SCRIPT [ARGS...]      e.g. bench/in-debian13.sh region_tools.sh
# Env:   BUILD (default ./build: the host build tree holding tests/roots/), RUNS, N, ...
#        (passed through)
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${BUILD:-$root_dir/build}" && pwd)"
script="${1:?usage: bench/in-debian13.sh SCRIPT [ARGS...]}"
shift
roots="$build/tests/roots"
if ! [ -x "$roots/trixie-build/src/cgbench" ]; then
  echo "bench: no Debian 13 build in $roots (run CGBENCH_SECOND_PLATFORM=1 ctest -L platform in $build)" >&2
  exit 1
fi
passed=()
for v in RUNS N FILES BENCHES; do
  if [ -n "${!v:-}" ]; then passed+=(--env "$v=${!v}"); fi
done
exec "$root_dir/tests/roots/in-root.sh" "$roots/trixie" --bind "$root_dir:/src" \
  --bind "$roots/trixie-build:/build" --bind "$build:/host-build" --env BUILD_DIR=/build --env SKIP_BUILD=1 "${passed[@]}" \
  -- bash "/src/bench/$script" "$@"
