#!/usr/bin/env bash
# Installs cgbench for a CI job: builds it from the source tree SRC (no tests) and installs it
# into PREFIX (bin/cgbench, bin/cgbench-pr, the header, the man page). When PREFIX/bin/cgbench
# already exists (a restored CI cache), only makes sure Valgrind is there.
# Usage: ci-install-cgbench.sh SRC PREFIX
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: ci-install-cgbench.sh SRC PREFIX" >&2
  exit 2
fi
src="$1"
prefix="$2"

if [ -x "$prefix/bin/cgbench" ] && [ -x "$prefix/bin/cgbench-pr" ]; then
  echo "ci-install-cgbench: using the cached $prefix/bin/cgbench" >&2
  if ! command -v valgrind >/dev/null; then
    sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends valgrind >/dev/null
  fi
  exit 0
fi

"$src/scripts/install-deps.sh"
build="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-build.XXXXXX")"
echo "ci-install-cgbench: building cgbench from $src" >&2
log="$build/build.log"
if ! { cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCGBENCH_BUILD_TESTS=OFF &&
       cmake --build "$build" -j "$(nproc)" --target cgbench cgbench_man &&
       cmake --install "$build" --prefix "$prefix"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "ci-install-cgbench: error: building cgbench from $src failed (the log is above)" >&2
  exit 1
fi
rm -rf "$build"
"$prefix/bin/cgbench" --version
