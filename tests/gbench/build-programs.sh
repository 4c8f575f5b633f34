#!/usr/bin/env bash
# Usage: build-programs.sh DEST [CMAKE_ARGS...]
#
# Builds Google Benchmark 1.9.1 into DEST/benchmark (fetch-build-benchmark.sh), then the test
# suite's Google Benchmark binaries against it into DEST/programs (the CMake project beside
# this script; CMAKE_ARGS pass the compiler and build type of the main build). Exits 77 with
# "SKIPPED: ..." when the library cannot be fetched, and leaves that line in
# DEST/programs/SKIPPED for the tests that would run the binaries; 1 on any other failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: build-programs.sh DEST [CMAKE_ARGS...]}"
shift
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"

mkdir -p "$dest/programs"
rm -f "$dest/programs/SKIPPED"
rc=0
"$here/fetch-build-benchmark.sh" "$dest/benchmark" 2>"$dest/fetch.err" || rc=$?
cat "$dest/fetch.err" >&2
if [ "$rc" -eq 77 ]; then
  grep '^SKIPPED:' "$dest/fetch.err" >"$dest/programs/SKIPPED" || true
fi
if [ "$rc" -ne 0 ]; then
  exit "$rc"
fi
exec 9>"$dest/.programs.lock"
flock 9
log="$dest/programs.log"
if ! {
  cmake -S "$here" -B "$dest/programs" -DCMAKE_PREFIX_PATH="$dest/benchmark/install" "$@" &&
    cmake --build "$dest/programs" -j "$(nproc)"
} >"$log" 2>&1; then
  cat "$log" >&2
  echo "build-programs.sh: building the test programs against $dest/benchmark failed" >&2
  exit 1
fi
grep -F "Google Benchmark" "$log"
