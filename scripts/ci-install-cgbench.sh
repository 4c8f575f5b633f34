#!/usr/bin/env bash
# Installs cgbench for a CI job into PREFIX, as the GitHub action and the GitLab template do.
#
#   ci-install-cgbench.sh [OPTIONS] SRC PREFIX
#                          use PREFIX when a CI cache restored a usable one, else build
#                          cgbench from the source tree SRC
#   ci-install-cgbench.sh [OPTIONS] --cached PREFIX
#                          use PREFIX if usable (exit 0), else exit 75: the caller fetches
#                          the source and runs the first form
#   ci-install-cgbench.sh [OPTIONS] --key SRC
#                          print the cache key of SRC on this machine (with --sha256 HEX:
#                          of that released cgbench)
#   ci-install-cgbench.sh [OPTIONS] --binary FILE|URL --sha256 HEX PREFIX
#                          install a released cgbench (the tarball the release workflow
#                          publishes) after checking its SHA-256; nothing is built
# OPTIONS:
#   --valgrind VERSION     also build Valgrind VERSION from Debian's source package into
#                          PREFIX/valgrind (scripts/build-valgrind.sh: "3.27", "testing", ...)
#                          and measure with it (PREFIX/bin/valgrind), cached with cgbench: the
#                          same Valgrind whatever the runner image ships. Also
#                          CGBENCH_VALGRIND_VERSION. Part of the key and the stamp.
#
# What is cached is one static executable (CGBENCH_STATIC): it needs nothing at run time but
# Valgrind and git, so a PREFIX restored on a fresh runner starts. PREFIX/.cgbench-install
# records what it was built from and for (operating system release, architecture, source);
# a restored PREFIX is used only when that matches this machine and the binary starts, and
# then only the run-time packages are installed (Valgrind, git). Otherwise cgbench is built:
# the build packages only (no test tools), a Release build whose progress is printed, then
# `cmake --install`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  echo "usage: ci-install-cgbench.sh [--valgrind VERSION] SRC PREFIX | --cached PREFIX |" \
    "--key SRC | --binary FILE|URL --sha256 HEX PREFIX" >&2
  exit 2
}

say() { echo "ci-install-cgbench: $*" >&2; }

# "debian-12-x86_64": the release the binary was built on (a GitHub image or a GitLab job's
# image); part of every cache key and of the stamp.
platform() {
  local id="unknown" version=""
  if [ -f /etc/os-release ]; then
    id="$(. /etc/os-release && echo "${ID:-unknown}")"
    version="$(. /etc/os-release && echo "${VERSION_ID:-${VERSION_CODENAME:-}}")"
  fi
  echo "$id-${version:-rolling}-$(uname -m)"
}

# A hash of everything that goes into the installed files.
source_hash() { # SRC
  (cd "$1" && find CMakeLists.txt LICENSE cmake configs include src scripts -type f -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
}

# "-valgrind-3.27" when a Valgrind is pinned (the version as asked: a suite name moves, so
# its key is refreshed when the resolved source version changes, in the stamp).
valgrind_suffix() {
  [ -z "$valgrind" ] || echo "-valgrind-$valgrind"
}

stamp_of() { # SRC
  echo "cgbench-$(platform)-$(source_hash "$1")$(valgrind_suffix)"
}

# 0 when PREFIX holds a cgbench built for this platform (from SRC when given) that starts.
usable() { # PREFIX [SRC]
  local prefix="$1" stamp="$1/.cgbench-install" have
  [ -x "$prefix/bin/cgbench" ] && [ -x "$prefix/bin/cgbench-pr" ] && [ -f "$stamp" ] ||
    return 1
  have="$(cat "$stamp")"
  if [ -n "${2:-}" ]; then
    [ "$have" = "$(stamp_of "$2")" ] || { say "the cached cgbench ($have) is not $(stamp_of "$2")"; return 1; }
  else
    case "$have" in
      "cgbench-$(platform)-"*) ;;
      *) say "the cached cgbench was built for ${have#cgbench-}, this is $(platform)"; return 1 ;;
    esac
  fi
  "$prefix/bin/cgbench" --version >/dev/null 2>&1 ||
    { say "the cached $prefix/bin/cgbench does not start here"; return 1; }
  local pinned=""
  case "$have" in *-valgrind-*) pinned="${have##*-valgrind-}" ;; esac
  if [ -n "$valgrind" ] && [ "$pinned" != "$valgrind" ]; then
    say "the cached cgbench measures with Valgrind ${pinned:-of the distribution}, not $valgrind"
    return 1
  fi
  case "$have" in
    *-valgrind-*)
      valgrind="$pinned"
      install_runtime
      "$prefix/bin/valgrind" -q --tool=none /bin/true >/dev/null 2>&1 ||
        { say "the cached Valgrind ($prefix/valgrind) does not start here (it stays where it was built)"; return 1; } ;;
  esac
}

# Valgrind and git, from the distribution, when missing; with a pinned Valgrind, git and
# what it needs at run time.
install_runtime() {
  if [ -n "$valgrind" ]; then
    "$here/install-deps.sh" --pinned-runtime
    return
  fi
  command -v valgrind >/dev/null && command -v git >/dev/null && return 0
  "$here/install-deps.sh" --runtime
}

# The pinned Valgrind, built (or kept) in PREFIX/valgrind and put on PREFIX/bin.
pin_valgrind() { # SCRIPTS_DIR PREFIX
  [ -n "$valgrind" ] || return 0
  say "Valgrind $valgrind from Debian's source package"
  "$1/build-valgrind.sh" "$valgrind" "$2/valgrind"
  local tool
  for tool in "$2"/valgrind/bin/*; do
    ln -sfn "../valgrind/bin/$(basename "$tool")" "$2/bin/$(basename "$tool")"
  done
}

# A released cgbench: the tarball (a local file or a URL) is checked against HEX before
# anything of it is unpacked, then it replaces PREFIX's cgbench (a pinned Valgrind in
# PREFIX/valgrind stays). A PREFIX already holding that release is kept.
release_stamp() { # HEX
  echo "cgbench-$(platform)-release-${1:0:16}$(valgrind_suffix)"
}

install_binary() { # FILE|URL HEX PREFIX
  local from="$1" want="$2" prefix="$3" dir file got
  if [ -f "$prefix/.cgbench-install" ] && [ "$(cat "$prefix/.cgbench-install")" = "$(release_stamp "$want")" ] &&
     "$prefix/bin/cgbench" --version >/dev/null 2>&1; then
    install_runtime
    say "using the cached released $("$prefix/bin/cgbench" --version) ($(cat "$prefix/.cgbench-install"))"
    return
  fi
  dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-release.XXXXXX")"
  file="$dir/cgbench.tar.gz"
  case "$from" in
    http://* | https://*)
      say "downloading $from"
      curl -fsSL --retry 3 -o "$file" "$from" ||
        { say "error: could not download $from (check the release and the URL)"; exit 4; } ;;
    *) cp "$from" "$file" ;;
  esac
  got="$(sha256sum "$file" | cut -d' ' -f1)"
  if [ "$got" != "$want" ]; then
    say "error: $from has SHA-256 $got, not $want (a changed or damaged file: check the release's SHA256SUMS)"
    rm -rf "$dir"
    exit 4
  fi
  mkdir -p "$dir/x"
  tar -xzf "$file" -C "$dir/x" --strip-components=1
  [ -x "$dir/x/bin/cgbench" ] || { say "error: $from holds no bin/cgbench"; rm -rf "$dir"; exit 4; }
  mkdir -p "$prefix"
  find "$prefix" -mindepth 1 -maxdepth 1 ! -name valgrind -exec rm -rf {} +
  cp -a "$dir/x/." "$prefix/"
  rm -rf "$dir"
  install_runtime
  "$prefix/bin/cgbench" --version >/dev/null ||
    { say "error: the released cgbench does not start on $(platform)"; exit 4; }
  release_stamp "$want" >"$prefix/.cgbench-install"
  say "installed the released $("$prefix/bin/cgbench" --version) (SHA-256 checked)"
}

build() { # SRC PREFIX
  local src="$1" prefix="$2" start=$SECONDS dir log
  say "building cgbench from $src for $(platform): once per machine image and cgbench" \
      "version, about 3 CPU-minutes; later jobs restore it from the cache"
  say "[1/4] installing the build packages"
  "$src/scripts/install-deps.sh" --build
  install_runtime
  dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-build.XXXXXX")"
  log="$dir/build.log"
  say "[2/4] configuring (Release, static)"
  # -O2: what cgbench itself spends is nothing next to Valgrind; -O3 only costs build time.
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
    -DCGBENCH_STATIC=ON \
    -DCGBENCH_BUILD_TESTS=OFF -DCGBENCH_BUILD_EXAMPLES=OFF >"$log" 2>&1 ||
    { cat "$log" >&2; say "error: configuring cgbench failed (the log is above)"; exit 1; }
  say "[3/4] compiling with $(nproc) jobs"
  # The compiler's progress lines as they come; the whole log when something fails.
  if ! cmake --build "$dir" -j "$(nproc)" --target cgbench cgbench_man 2>&1 | tee -a "$log" |
      grep --line-buffered -E '^\[ *[0-9]+%\]' | sed -u 's/^/  /' >&2; then
    cat "$log" >&2
    say "error: building cgbench from $src failed (the log is above)"
    exit 1
  fi
  say "[4/4] installing into $prefix"
  # Only an installation this script made is replaced as a whole.
  [ -f "$prefix/.cgbench-install" ] && rm -rf "$prefix"
  cmake --install "$dir" --prefix "$prefix" >>"$log" 2>&1 ||
    { cat "$log" >&2; say "error: installing cgbench into $prefix failed"; exit 1; }
  # This script and the package lists, so that a job restoring PREFIX without the source
  # can check it (--cached) and install what it needs.
  cp "$src/scripts/ci-install-cgbench.sh" "$src/scripts/install-deps.sh" \
    "$src/scripts/build-valgrind.sh" "$src/tests/roots/mirror.sh" "$prefix/share/cgbench/"
  pin_valgrind "$src/scripts" "$prefix"
  stamp_of "$src" >"$prefix/.cgbench-install"
  rm -rf "$dir"
  say "built and installed in $((SECONDS - start)) s: $("$prefix/bin/cgbench" --version)"
}

valgrind="${CGBENCH_VALGRIND_VERSION:-}"
binary=""
sha256=""
while [ $# -gt 0 ]; do
  case "$1" in
    --valgrind) [ $# -ge 2 ] || usage; valgrind="$2"; shift 2 ;;
    --binary) [ $# -ge 2 ] || usage; binary="$2"; shift 2 ;;
    --sha256) [ $# -ge 2 ] || usage; sha256="$2"; shift 2 ;;
    *) break ;;
  esac
done
if [ "${1:-}" = --key ] && [ -n "$sha256" ]; then
  release_stamp "$sha256"
  exit 0
fi
if [ -n "$binary" ]; then
  [ -n "$sha256" ] ||
    { say "error: --binary $binary needs --sha256 HEX (its line in the release's SHA256SUMS)"; exit 2; }
  [ $# -eq 1 ] || usage
  install_binary "$binary" "$sha256" "$1"
  pin_valgrind "$1/share/cgbench" "$1"
  exit 0
fi
[ $# -eq 2 ] || usage
case "$1" in
  --key) stamp_of "$2" ;;
  --cached)
    if usable "$2"; then
      install_runtime
      say "using the cached $2/bin/cgbench ($(cat "$2/.cgbench-install"))"
    else
      exit 75
    fi ;;
  -*) usage ;;
  *)
    if usable "$2" "$1"; then
      install_runtime
      say "using the cached $2/bin/cgbench ($(cat "$2/.cgbench-install"))"
    else
      build "$1" "$2"
    fi ;;
esac
