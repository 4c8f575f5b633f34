#!/usr/bin/env bash
# Builds a chosen Valgrind from Debian's source package and installs it into PREFIX, for a CI
# job that wants the same Valgrind whatever its runner image ships (a new image then no longer
# starts a new history epoch), or one that runs on its CPU (Valgrind before 3.26 dies on
# ARMv8.3's LDAPR instructions, which GitHub's arm64 runners have).
#
#   build-valgrind.sh VERSION PREFIX   build and install (once: a PREFIX holding it is kept)
#   build-valgrind.sh --resolve VERSION
#                                      print the Debian source version VERSION names
#
# VERSION is an upstream version ("3.27.0", or "3.27" for the newest 3.27.x), a Debian
# source version ("1:3.27.0-1") or a Debian suite ("testing", "forky", "trixie": the version
# it ships). The source comes only through apt (`apt-get source`, signed by Debian's archive
# key) from the Debian mirror of this machine's apt configuration or CGBENCH_DEBIAN_MIRROR
# (an Ubuntu runner sets it): a private apt state in a scratch directory, so the machine's
# sources stay as they were. CGBENCH_VALGRIND_SUITES lists the suites searched for an upstream
# version (default: stable testing unstable). Debian's patches are applied as its package
# applies them; the build is 64-bit only, without documentation, `make -j$(nproc)`.
#
# PREFIX/bin/valgrind is then a plain Valgrind (no wrapper), configured for PREFIX: it must
# stay there (Valgrind finds its tools through the path it was built for).
# PREFIX/.cgbench-valgrind records the source version, the platform and the prefix.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

say() { echo "build-valgrind: $*" >&2; }
die() { echo "build-valgrind: error: $1" >&2; exit "${2:-4}"; }
usage() { echo "usage: build-valgrind.sh VERSION PREFIX | --resolve VERSION" >&2; exit 2; }

# The Debian archive URL: CGBENCH_DEBIAN_MIRROR, else the first Debian source of apt's
# configuration (the same rule as the tests' roots).
mirror() {
  if [ -n "${CGBENCH_DEBIAN_MIRROR:-}" ]; then echo "${CGBENCH_DEBIAN_MIRROR%/}"; return; fi
  local m="" lib
  # The source tree's tests/roots/mirror.sh, or its copy beside an installed script.
  for lib in "$here/../tests/roots/mirror.sh" "$here/mirror.sh"; do
    if [ -f "$lib" ]; then
      # shellcheck source=../tests/roots/mirror.sh
      source "$lib"
      m="$(debian_mirror || true)"
      break
    fi
  done
  [ -n "$m" ] || die "no Debian mirror in this machine's apt configuration (set CGBENCH_DEBIAN_MIRROR to a Debian archive URL, e.g. a mirror's http://HOST/debian)" 4
  echo "$m"
}

# A private apt configuration in $apt_dir: deb-src lines for the suites, its own lists and
# cache, the system's keyrings. Echoes the apt-get/apt-cache options.
apt_dir=""
apt_opts=()
setup_apt() { # SUITE...
  apt_dir="$(mktemp -d "${TMPDIR:-/tmp}/cgbench-valgrind-apt.XXXXXX")"
  local m keyring=/usr/share/keyrings/debian-archive-keyring.gpg suite
  m="$(mirror)"
  [ -f "$keyring" ] ||
    die "Debian's archive key is not installed (apt-get install debian-archive-keyring)" 4
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
  : >"$apt_dir/sources.list"
  for suite in "$@"; do
    echo "deb-src [signed-by=$keyring] $m $suite main" >>"$apt_dir/sources.list"
  done
  apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/parts"
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
            -o "Dir::State::status=/var/lib/dpkg/status"
            -o "Acquire::Check-Valid-Until=false" -o "APT::Sandbox::User=root"
            -o "Debug::NoLocking=1")
  apt-get "${apt_opts[@]}" update -qq >"$apt_dir/update.log" 2>&1 ||
    { cat "$apt_dir/update.log" >&2; die "apt could not read the Debian sources ($m: $*)" 4; }
}

# The suites searched for VERSION: the one it names, or CGBENCH_VALGRIND_SUITES.
suites_for() { # VERSION
  case "$1" in
    [0-9]*) echo "${CGBENCH_VALGRIND_SUITES:-stable testing unstable}" ;;
    *) echo "$1" ;;
  esac
}

# The Debian source version for VERSION, from the Sources setup_apt read.
resolve() { # VERSION
  local want="$1" versions v best=""
  versions="$(apt-cache "${apt_opts[@]}" showsrc valgrind 2>/dev/null |
    sed -n 's/^Version: //p' | sort -u)"
  [ -n "$versions" ] || die "Debian's sources ($(suites_for "$want")) have no valgrind package" 4
  while read -r v; do
    local upstream="${v#*:}"
    upstream="${upstream%-*}"
    case "$want" in
      [0-9]*:* | *-*) [ "$v" = "$want" ] || continue ;;
      [0-9]*) [ "$upstream" = "$want" ] || [[ "$upstream" == "$want".* ]] || continue ;;
    esac
    if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best="$v"; fi
  done <<<"$versions"
  [ -n "$best" ] ||
    die "no valgrind $want in Debian's $(suites_for "$want") (they have: $(tr '\n' ' ' <<<"$versions"))" 2
  echo "$best"
}

# 0 when PREFIX holds a Valgrind this script built from SOURCE_VERSION for this platform and
# prefix that starts a tool.
usable() { # PREFIX SOURCE_VERSION
  [ -x "$1/bin/valgrind" ] && [ -f "$1/.cgbench-valgrind" ] &&
    [ "$(cat "$1/.cgbench-valgrind")" = "$(stamp "$1" "$2")" ] &&
    "$1/bin/valgrind" -q --tool=none /bin/true >/dev/null 2>&1
}

stamp() { # PREFIX SOURCE_VERSION
  echo "valgrind $2 for $(uname -m) in $(cd "$1" 2>/dev/null && pwd || echo "$1")"
}

cleanup() { [ -z "$apt_dir" ] || rm -rf "$apt_dir"; }
trap cleanup EXIT

[ $# -eq 2 ] || usage
if [ "$1" = --resolve ]; then
  # shellcheck disable=SC2046 # one word per suite
  setup_apt $(suites_for "$2")
  resolve "$2"
  exit 0
fi
want="$1"
prefix="$2"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
start=$SECONDS
# shellcheck disable=SC2046 # one word per suite
setup_apt $(suites_for "$want")
source_version="$(resolve "$want")"
if usable "$prefix" "$source_version"; then
  say "using the Valgrind in $prefix ($(cat "$prefix/.cgbench-valgrind"))"
  exit 0
fi
say "building Valgrind $source_version from Debian's source package into $prefix (several CPU-minutes, once)"
say "[1/4] installing the build packages"
"$here/install-deps.sh" --valgrind-build
work="$apt_dir/build"
mkdir -p "$work"
say "[2/4] fetching the source (apt-get source valgrind=$source_version)"
(cd "$work" && apt-get "${apt_opts[@]}" source -qq --only-source "valgrind=$source_version" \
  >"$work/source.log" 2>&1) ||
  { cat "$work/source.log" >&2; die "apt-get source valgrind=$source_version failed" 4; }
src="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'valgrind-*' | head -n 1)"
[ -n "$src" ] || die "apt-get source left no valgrind-* directory in $work" 4
log="$work/build.log"
say "[3/4] configuring and compiling with $(nproc) jobs"
# As Debian's package builds it: autoreconf first (its patches touch Makefile.am files).
(cd "$src" && autoreconf -fi >>"$log" 2>&1) || { tail -n 40 "$log" >&2; die "autoreconf failed (log: $log)" 4; }
(cd "$src" && ./configure --prefix="$prefix" --enable-only64bit --without-mpicc >>"$log" 2>&1) ||
  { tail -n 40 "$log" >&2; die "configuring Valgrind failed (log: $log)" 4; }
# Make's directory lines as progress: one per part of Valgrind.
if ! (cd "$src" && make -j "$(nproc)" 2>&1 | tee -a "$log" |
      sed -un -E "s|^make\[[0-9]+\]: Entering directory .*/(VEX\|coregrind\|cachegrind\|callgrind\|memcheck\|none)'\$|  compiling \1|p" >&2); then
  tail -n 60 "$log" >&2
  die "building Valgrind failed (log: $log)" 4
fi
say "[4/4] installing into $prefix"
(cd "$src" && make install >>"$log" 2>&1) || { tail -n 40 "$log" >&2; die "make install failed" 4; }
stamp "$prefix" "$source_version" >"$prefix/.cgbench-valgrind"
"$prefix/bin/valgrind" -q --tool=none /bin/true ||
  die "the Valgrind built in $prefix does not run here" 4
say "built Valgrind $("$prefix/bin/valgrind" --version) in $((SECONDS - start)) s;" \
  "installed $(du -sh "$prefix" | cut -f1)"
