#!/usr/bin/env bash
# Installs cgbench's build and test dependencies from Debian packages. Idempotent: asks apt
# only for what is missing, and does nothing when everything is present.
#   --tests  also what only the test suite needs: chromium, which loads the HTML report in
#            tests/browser/, and debootstrap, which makes the clean Debian roots of
#            tests/roots/ (scripts/test.sh passes it)
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev
  libsqlite3-dev sqlite3 libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  valgrind
  python3
  rsync
  curl
)
# The CI tests install their clients with npm (tests/ci/install.sh). Debian's nodejs and npm,
# unless a Node.js with npm is already installed (another distribution's packages conflict).
if ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
if [ "${1:-}" = --tests ]; then
  packages+=(chromium debootstrap)
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
