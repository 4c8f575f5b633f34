#!/usr/bin/env bash
# Usage: fetch-build-benchmark.sh DEST
#
# Downloads Google Benchmark 1.9.1 (the source tarball of Debian's package, from the Debian
# mirror this machine's apt configuration uses, or CGBENCH_DEBIAN_MIRROR: see
# tests/roots/mirror.sh), checks its sha256 (the download may be plain HTTP) and builds the
# static library with CMake into
# DEST/install (headers, libbenchmark.a, the CMake package). Once: a stamp records what was
# built, and concurrent callers wait for each other. Exits 77 (ctest's skip code) with one
# "SKIPPED: ..." line naming the cause when the archive cannot be reached; any other failure
# (checksum mismatch, build error) exits 1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: fetch-build-benchmark.sh DEST}"
version=1.9.1
# shellcheck source=../roots/mirror.sh
source "$here/../roots/mirror.sh"
sha256=32131c08ee31eeff2c8968d7e874f3cb648034377dfc32a4c377fa8796d84981

mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
stamp="$dest/install/.cgbench-stamp"
# The tarball and this script (its build options) decide what is built.
want="$sha256 $(sha256sum "$here/$(basename "$0")" | cut -d' ' -f1)"
exec 9>"$dest/.lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
if ! command -v curl >/dev/null; then
  echo "fetch-build-benchmark.sh: curl is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

if ! mirror="$(debian_mirror)"; then
  echo "SKIPPED: Google Benchmark $version not fetched: no Debian mirror in this machine's apt" \
    "configuration (set CGBENCH_DEBIAN_MIRROR)" >&2
  exit 77
fi
url="$mirror/pool/main/b/benchmark/benchmark_${version}.orig.tar.gz"
tarball="$dest/benchmark_${version}.orig.tar.gz"
if ! [ -f "$tarball" ] || ! echo "$sha256  $tarball" | sha256sum --check --status; then
  rc=0
  status="$(curl -sS --connect-timeout 10 --max-time 180 --retry 2 -o "$tarball.part" \
    -w '%{http_code}' "$url" 2>"$dest/curl.log")" || rc=$?
  case "$rc" in
    0) ;;
    5 | 6 | 7 | 28 | 35 | 52 | 56)
      echo "SKIPPED: Google Benchmark $version not fetched, the Debian archive is unreachable" \
        "(curl exit $rc: $(tail -n 1 "$dest/curl.log"))" >&2
      exit 77
      ;;
    *)
      echo "fetch-build-benchmark.sh: downloading $url failed (curl exit $rc):" >&2
      cat "$dest/curl.log" >&2
      exit 1
      ;;
  esac
  if [ "$status" != 200 ]; then
    echo "fetch-build-benchmark.sh: $url answered HTTP $status" >&2
    exit 1
  fi
  got="$(sha256sum "$tarball.part" | cut -d' ' -f1)"
  if [ "$got" != "$sha256" ]; then
    echo "fetch-build-benchmark.sh: $url has sha256 $got, expected $sha256" >&2
    rm -f "$tarball.part"
    exit 1
  fi
  mv "$tarball.part" "$tarball"
fi

rm -rf "$dest/src" "$dest/build" "$dest/install"
mkdir -p "$dest/src"
tar -xzf "$tarball" -C "$dest/src" --strip-components=1
log="$dest/build.log"
# The library names its version after `git describe` when it finds a repository: keep git
# from finding the one this build tree may sit in, so it takes its own (1.9.1).
if ! {
  GIT_CEILING_DIRECTORIES="$dest" cmake -S "$dest/src" -B "$dest/build" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_INSTALL_PREFIX="$dest/install" -DCMAKE_INSTALL_LIBDIR=lib \
    -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_GTEST_TESTS=OFF \
    -DBENCHMARK_ENABLE_WERROR=OFF -DBENCHMARK_INSTALL_DOCS=OFF &&
    cmake --build "$dest/build" -j "$(nproc)" &&
    cmake --install "$dest/build"
} >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "fetch-build-benchmark.sh: building Google Benchmark $version failed (log: $log)" >&2
  exit 1
fi
echo "$want" >"$stamp"
