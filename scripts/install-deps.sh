#!/usr/bin/env bash
# Installs cgbench's dependencies from Debian (or Ubuntu) packages. Idempotent: asks apt only
# for what is missing, and does nothing when everything is present.
#   (no option)  build cgbench with its tests and examples (scripts/build.sh)
#   --build      only what building cgbench itself needs, no tests or examples: what a CI job
#                installs on a cache miss (scripts/ci-install-cgbench.sh)
#   --runtime    only what running cgbench needs: Valgrind, and git for cgbench-pr
#   --tests      also what only the test suite needs: chromium, which loads the HTML report
#                in tests/browser/, and debootstrap, which makes the clean Debian roots of
#                tests/roots/ (scripts/test.sh passes it)
#   --e2e        what building cgbench with its tests and running the end-to-end tests needs,
#                on any Debian release (the second-platform lane installs it in a Debian 13
#                root, tests/roots/test_second_platform.sh)
#   --list       (first) print the packages of the set, one per line, and install nothing
set -euo pipefail
list=0
if [ "${1:-}" = --list ]; then
  list=1
  shift
fi

runtime=(valgrind git)
build=(
  build-essential cmake pkg-config git
  libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev
  libsqlite3-dev libtomlplusplus-dev libre2-dev
)
development=(
  "${build[@]}" "${runtime[@]}"
  sqlite3 libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  python3 lua5.4
  rsync
  curl jq
  groff-base
)
# The end-to-end tests: the compiler, the libraries the tests link, the interpreters and
# clients they run (Lua: a runtime that seeds its hashes from the clock).
e2e=("${build[@]}" "${runtime[@]}" sqlite3 libgtest-dev libgmock-dev libbenchmark-dev python3
     lua5.4)
# The CI tests install their clients with npm (tests/ci/install.sh). Debian's nodejs and npm,
# unless a Node.js with npm is already installed (another distribution's packages conflict).
if ! command -v npm >/dev/null; then
  development+=(nodejs npm)
fi

packages=()
case "${1:-}" in
  "") packages=("${development[@]}") ;;
  --build) packages=("${build[@]}") ;;
  --runtime) packages=("${runtime[@]}") ;;
  --tests) packages=("${development[@]}" chromium debootstrap) ;;
  --e2e) packages=("${e2e[@]}") ;;
  *) echo "usage: install-deps.sh [--list] [--build | --runtime | --tests | --e2e]" >&2; exit 2 ;;
esac
if [ "$list" = 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "install-deps: need root to install: ${missing[*]}" >&2
    exit 4
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
