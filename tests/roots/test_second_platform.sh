#!/usr/bin/env bash
# Another platform: the end-to-end tests of this source tree run inside a clean root of
# another Debian release, as they run on the host (Debian 12: Valgrind 3.19, glibc 2.36,
# g++ 12). SUITE is
#   trixie  Debian 13 (Valgrind 3.24, glibc 2.41, g++ 14, Google Benchmark 1.9.1), the default;
#           opt-in with CGBENCH_SECOND_PLATFORM=1
#   forky   Debian's testing release (Valgrind 3.27, glibc 2.43, g++ 16, Python 3.14);
#           opt-in with CGBENCH_TESTING_PLATFORM=1
#
#   1. the root: tests/roots/debian-root.sh SUITE with `scripts/install-deps.sh --list --e2e`
#      (that release's package names) installed, cached in BUILD/tests/roots/SUITE (a stamp
#      says what it holds), and the package table checked against the root's apt-cache;
#   2. the build: this source tree, bound into the root at /src, configured and built there
#      with the root's own compiler and libraries in BUILD/tests/roots/SUITE-build (bound at
#      /build; kept, so a later run only rebuilds what changed): cgbench, the e2e test binary
#      and the programs it measures (the unit tests read captured files and do not depend on
#      the platform: the host runs them, on the files each Valgrind wrote among them);
#   3. the tests: `ctest -L e2e` inside the root, every e2e test, Cachegrind's regions and
#      Google Benchmark 1.9.1 among them, but Install.* (they build and package the whole
#      project, unit tests included: ten minutes more for what the host's run checks).
#
# Opt-in while no build of the lane is cached: without its variable and without
# BUILD/tests/roots/SUITE-build it exits 77 (ctest's skip) with one line saying how to run it;
# once built it runs on every test command. It also skips with one line naming the cause
# without root, debootstrap or a mirror that answers (debian-root.sh). The last line gives
# the time of each step and the counts.
# Usage: test_second_platform.sh BUILD_DIR [SUITE [CTEST_ARGS...]]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: test_second_platform.sh BUILD_DIR [SUITE [CTEST_ARGS...]]}" && pwd)"
shift
suite="${1:-trixie}"
[ $# -eq 0 ] || shift
case "$suite" in
  trixie) release=debian-13 name="Debian 13" optin=CGBENCH_SECOND_PLATFORM test=debian13 ;;
  forky) release=debian-testing name="Debian testing" optin=CGBENCH_TESTING_PLATFORM test=debian_testing ;;
  *) echo "test_second_platform.sh: unknown suite $suite (trixie or forky)" >&2; exit 2 ;;
esac
roots="$build/tests/roots"
root="$roots/$suite"
lane_build="$roots/$suite-build"

if [ "${CGBENCH_SKIP_CACHED_LANES:-0}" = 1 ] && [ "${!optin:-0}" != 1 ]; then
  echo "SKIPPED: CGBENCH_SKIP_CACHED_LANES=1 (the $name lane's build is kept in $lane_build)"
  exit 77
fi
if [ "${!optin:-0}" != 1 ] && ! [ -f "$lane_build/CMakeCache.txt" ]; then
  echo "SKIPPED: the $name lane bootstraps a root and builds cgbench in it (about 15" \
    "minutes the first time, then only what changed); run it once with" \
    "$optin=1 ctest -R Platform.$test"
  exit 77
fi

seconds() { date +%s; }
t0=$(seconds)
mapfile -t packages < <(CGBENCH_RELEASE=$release "$source_dir/scripts/install-deps.sh" --list --e2e)
"$here/debian-root.sh" "$suite" "$root" "${packages[@]}"
"$here/check_package_table.sh" "$root" "$release"
t1=$(seconds)

mkdir -p "$lane_build"
in_root() {
  "$here/in-root.sh" "$root" --bind "$source_dir:/src" --bind "$lane_build:/build" "$@"
}
# CMake's default build type and the warnings of the host build; no -Werror, so that a new
# warning of a newer g++ is reported rather than stopping the lane.
if ! in_root -- /usr/bin/env -C /build sh -c \
    'cmake -S /src -B /build -DCMAKE_BUILD_TYPE=RelWithDebInfo >configure.log 2>&1 &&
     cmake --build /build -j "$(nproc)" --target cgbench cgbench_e2e_tests >build.log 2>&1'; then
  tail -n 40 "$lane_build/configure.log" "$lane_build/build.log" >&2 2>/dev/null || true
  echo "FAIL: building cgbench in the $name root failed (logs in $lane_build)" >&2
  exit 1
fi
t2=$(seconds)
warnings=$(grep -c 'warning:' "$lane_build/build.log" || true)

code=0
in_root -- /usr/bin/env -C /build ctest -L e2e -E '^Install[.]' -j "$(nproc)" --output-on-failure "$@" \
  >"$lane_build/ctest.log" 2>&1 || code=$?
t3=$(seconds)
summary="$(grep -E 'tests passed|tests failed' "$lane_build/ctest.log" | tail -n 1)"
if [ "$code" -ne 0 ]; then
  sed -n '/The following tests FAILED/,$p' "$lane_build/ctest.log" >&2
  grep -B2 -A30 -E '\*\*\*Failed|\[  FAILED  \]' "$lane_build/ctest.log" | head -n 200 >&2
fi
versions="$(in_root -- sh -c 'valgrind --version; ldd --version | head -n 1; g++ --version | head -n 1; python3 --version' | tr '\n' ';')"
echo "platform lane ($name: $versions): ${summary:-no ctest summary};" \
  "root $((t1 - t0)) s, build $((t2 - t1)) s ($warnings warnings), tests $((t3 - t2)) s"
exit "$code"
