#!/usr/bin/env bash
# Installs cgbench's dependencies from Debian (or Ubuntu) packages. Idempotent: asks apt only
# for what is missing, and does nothing when everything is present.
#   (no option)  build cgbench with its tests and examples (scripts/test.sh)
#   --examples   build cgbench and the examples and measure them, nothing the tests alone
#                need: what the main job (scripts/run-examples.sh) installs
#   --build      only what building cgbench itself needs, no tests or examples: what a CI job
#                installs on a cache miss (scripts/ci-install-cgbench.sh)
#   --runtime    only what running cgbench needs: Valgrind, git for `cgbench pr`, and curl
#                (with the CA certificates) for its alerts
#   --tests      also what only the test suite needs: chromium, which loads the HTML report
#                in tests/browser/, debootstrap, which makes the clean Debian roots of
#                tests/roots/, and cmark-gfm, GitHub's Markdown renderer, which renders the
#                PR comment in Hardening.J01 (scripts/test.sh passes it), and postgresql,
#                whose server the PostgreSQL tests start as their own (tests/support/)
#   --e2e        what building cgbench with its tests and running the end-to-end tests needs
#                (the platform lanes install it in their roots, tests/roots/)
#   --valgrind-build  what building Valgrind from Debian's source package needs
#                (scripts/ci-install-cgbench.sh --valgrind)
#   --bench      what bench/real_world.sh measures besides the examples: 15 programs nobody
#                here wrote, among them Ruby, Go and Rust ones (compiled by the script)
#   --all        every package of the table (with --list: what tests/roots checks exists)
#   --pinned-runtime  what running cgbench with a Valgrind built from source needs (git,
#                libc6-dbg)
#   --list       (first) print the packages of the set, one per line, and install nothing
#   --release    (first) print the release the names are taken for, e.g. debian-13
#
# Package names differ between releases: one table below names each package per release
# (Debian 12, 13 and testing; Ubuntu 22.04 and 24.04), read from /etc/os-release
# (CGBENCH_RELEASE overrides it, e.g. to list another release's names). An unknown release
# is an error naming it, never a guess.
set -euo pipefail

# What each set needs, by role; a role's package name on each release comes from the table.
runtime=(valgrind git curl ca-certificates)
build=(build-essential cmake pkg-config git cli11 nlohmann-json fmt spdlog sqlite3-dev
       libpq-dev tomlplusplus re2)
examples=("${build[@]}" "${runtime[@]}" gtest gmock benchmark python3)
# The end-to-end tests also run Lua: a runtime that seeds its hashes from the clock.
e2e=("${examples[@]}" sqlite3 lua5.4)
development=("${e2e[@]}" clang clang-rt rsync curl jq groff-base)
valgrind_build=(build-essential dpkg-dev pkg-config autoconf automake libc6-dbg)
# bench/real_world.sh: programs and language runtimes to measure (not needed by any test).
bench=(xz-utils jq sqlite3 git bc python3 perl lua5.4 ruby nodejs golang-go rustc zstd)
# Running a Valgrind built from source: its tools read ld.so's symbols from libc6-dbg.
pinned_runtime=(git libc6-dbg)

# role            debian-12          debian-13          debian-testing     ubuntu-22.04  ubuntu-24.04
# A name per release; "=" the role's own name, "-" no such package on that release.
table='
build-essential   =                  =                  =                  =             =
cmake             =                  =                  =                  =             =
pkg-config        =                  =                  =                  =             =
dpkg-dev          =                  =                  =                  =             =
autoconf          =                  =                  =                  =             =
automake          =                  =                  =                  =             =
libc6-dbg         =                  =                  =                  =             =
git               =                  =                  =                  =             =
valgrind          =                  =                  =                  =             =
cli11             libcli11-dev       libcli11-dev       libcli11-dev       libcli11-dev  libcli11-dev
nlohmann-json     nlohmann-json3-dev nlohmann-json3-dev nlohmann-json3-dev nlohmann-json3-dev nlohmann-json3-dev
fmt               libfmt-dev         libfmt-dev         libfmt-dev         libfmt-dev    libfmt-dev
spdlog            libspdlog-dev      libspdlog-dev      libspdlog-dev      libspdlog-dev libspdlog-dev
sqlite3-dev       libsqlite3-dev     libsqlite3-dev     libsqlite3-dev     libsqlite3-dev libsqlite3-dev
libpq-dev         =                  =                  =                  =             =
tomlplusplus      libtomlplusplus-dev libtomlplusplus-dev libtomlplusplus-dev -          libtomlplusplus-dev
re2               libre2-dev         libre2-dev         libre2-dev         libre2-dev    libre2-dev
gtest             libgtest-dev       libgtest-dev       libgtest-dev       libgtest-dev  libgtest-dev
gmock             libgmock-dev       libgmock-dev       libgmock-dev       libgmock-dev  libgmock-dev
benchmark         libbenchmark-dev   libbenchmark-dev   libbenchmark-dev   libbenchmark-dev libbenchmark-dev
python3           =                  =                  =                  =             =
sqlite3           =                  =                  =                  =             =
lua5.4            =                  =                  =                  =             =
postgresql        =                  =                  =                  =             =
clang             =                  =                  =                  =             =
clang-rt          libclang-rt-14-dev libclang-rt-19-dev libclang-rt-dev    libclang-common-14-dev libclang-rt-18-dev
rsync             =                  =                  =                  =             =
curl              =                  =                  =                  =             =
ca-certificates   =                  =                  =                  =             =
jq                =                  =                  =                  =             =
groff-base        =                  =                  =                  =             =
chromium          =                  =                  =                  -             -
debootstrap       =                  =                  =                  =             =
cmark-gfm         =                  =                  =                  =             =
nodejs            =                  =                  =                  =             =
npm               =                  =                  =                  =             =
xz-utils          =                  =                  =                  =             =
bc                =                  =                  =                  =             =
perl              =                  =                  =                  =             =
ruby              =                  =                  =                  =             =
golang-go         =                  =                  =                  =             =
rustc             =                  =                  =                  =             =
zstd              =                  =                  =                  =             =
'
releases=(debian-12 debian-13 debian-testing ubuntu-22.04 ubuntu-24.04)

# debian-13, ubuntu-24.04; a Debian without VERSION_ID (testing or unstable) is
# debian-testing.
release() {
  if [ -n "${CGBENCH_RELEASE:-}" ]; then
    echo "$CGBENCH_RELEASE"
    return
  fi
  local id="" version=""
  if [ -f /etc/os-release ]; then
    id="$(. /etc/os-release && echo "${ID:-}")"
    version="$(. /etc/os-release && echo "${VERSION_ID:-}")"
  fi
  case "$id:$version" in
    debian:) echo debian-testing ;;
    *) echo "$id-${version:-unknown}" ;;
  esac
}

list=0
show_release=0
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1; shift ;;
    --release) show_release=1; shift ;;
    *) break ;;
  esac
done
rel="$(release)"
if [ "$show_release" = 1 ]; then
  echo "$rel"
  exit 0
fi
column=0
for i in "${!releases[@]}"; do
  [ "${releases[$i]}" = "$rel" ] && column=$((i + 2))
done
if [ "$column" = 0 ]; then
  echo "install-deps: error: no package names for the release $rel (known: ${releases[*]};" \
    "set CGBENCH_RELEASE to the nearest of them to try its names)" >&2
  exit 2
fi

roles=()
case "${1:-}" in
  "") roles=("${development[@]}") ;;
  --examples) roles=("${examples[@]}") ;;
  --build) roles=("${build[@]}") ;;
  --runtime) roles=("${runtime[@]}") ;;
  --tests) roles=("${development[@]}" chromium debootstrap cmark-gfm postgresql) ;;
  --e2e) roles=("${e2e[@]}") ;;
  --valgrind-build) roles=("${valgrind_build[@]}") ;;
  --pinned-runtime) roles=("${pinned_runtime[@]}") ;;
  --bench) roles=("${bench[@]}") ;;
  --all) mapfile -t roles < <(awk 'NF { print $1 }' <<<"$table") ;;
  *)
    echo "usage: install-deps.sh [--list] [--release] [--examples | --build | --runtime |" \
      "--tests | --e2e | --valgrind-build | --pinned-runtime | --bench | --all]" >&2
    exit 2 ;;
esac
# The CI tests install their clients with npm (tests/ci/install.sh). Debian's nodejs and npm,
# unless a Node.js with npm is already installed (another distribution's packages conflict).
if [ "${1:-}" = "" ] || [ "${1:-}" = --tests ]; then
  command -v npm >/dev/null || roles+=(nodejs npm)
fi
# bench/real_world.sh measures whichever Node.js is installed.
if [ "${1:-}" = --bench ] && command -v node >/dev/null; then
  mapfile -t roles < <(printf '%s\n' "${roles[@]}" | grep -vx nodejs)
fi

packages=()
absent=()
for role in "${roles[@]}"; do
  name="$(awk -v r="$role" -v c="$column" '$1 == r { print $c; found = 1 } END { if (!found) print "?" }' <<<"$table")"
  case "$name" in
    "?") echo "install-deps: error: the role $role is missing from the table" >&2; exit 2 ;;
    =) name="$role" ;;
  esac
  if [ "$name" = - ]; then
    absent+=("$role")
  elif [[ " ${packages[*]} " != *" $name "* ]]; then
    packages+=("$name")
  fi
done
# Test-only tools a release lacks are left out (their tests skip, saying why); a package
# cgbench needs to build is not.
for role in "${absent[@]}"; do
  case "$role" in
    chromium) [ "${1:-}" = --all ] || echo "install-deps: $rel has no chromium package (the browser tests skip)" >&2 ;;
    *)
      [ "${1:-}" = --all ] && continue
      echo "install-deps: error: $rel has no package for $role, which building cgbench needs" \
        "(use a released cgbench binary or .deb, or a newer release)" >&2
      exit 2 ;;
  esac
done
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
echo "install-deps: installing ${#missing[@]} packages for $rel: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
start=$SECONDS
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed in $((SECONDS - start)) s" >&2
