#!/usr/bin/env bash
# Builds the release artifacts of this source tree for the machine it runs on, into OUT:
#   cgbench-VERSION-linux-ARCH.tar.gz   the static cgbench (CGBENCH_STATIC: needs nothing at
#                                       run time but Valgrind and git, so one per
#                                       architecture serves every release), cgbench-pr and the
#                                       CI helpers, the man pages, the header; what
#                                       `ci-install-cgbench.sh --binary` installs (--static)
#   cgbench_VERSION-1~RELEASE_DEBARCH.deb
#                                       the package for this release (dynamically linked
#                                       against its libraries; Depends from dpkg-shlibdeps)
# and a SHA256SUMS line for each in OUT/SHA256SUMS. The release workflow
# (.github/workflows/release.yml) runs it per release and architecture.
# Usage: release-artifacts.sh [--static | --deb] OUT     (default: both)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
what="both"
case "${1:-}" in
  --static) what=static; shift ;;
  --deb) what=deb; shift ;;
esac
out="${1:?usage: release-artifacts.sh [--static | --deb] OUT}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
say() { echo "release-artifacts: $*" >&2; }

"$root/scripts/install-deps.sh" --build
release="$("$root/scripts/install-deps.sh" --release)"
version="$(sed -n 's/^project(cgbench VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
arch="$(uname -m)"
work="$(mktemp -d "${TMPDIR:-/tmp}/cgbench-release.XXXXXX")"
trap 'rm -rf "$work"' EXIT
common=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
        -DCGBENCH_BUILD_TESTS=OFF -DCGBENCH_BUILD_EXAMPLES=OFF)
build() { # DIR CMAKE_ARGS...
  local dir="$1"
  shift
  cmake -S "$root" -B "$dir" "${common[@]}" "$@" >"$dir.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" >>"$dir.log" 2>&1 ||
    { tail -n 40 "$dir.log" >&2; say "error: the build failed (log above)"; exit 1; }
}
sums=()

if [ "$what" != deb ]; then
  name="cgbench-$version-linux-$arch"
  say "building $name.tar.gz (static)"
  build "$work/static" -DCGBENCH_STATIC=ON
  cmake --install "$work/static" --prefix "$work/$name" >/dev/null
  # What ci-install-cgbench.sh keeps beside an installation, so a job can check and extend it.
  cp "$root/scripts/ci-install-cgbench.sh" "$root/scripts/install-deps.sh" \
    "$root/scripts/build-valgrind.sh" "$root/tests/roots/mirror.sh" "$work/$name/share/cgbench/"
  if readelf -d "$work/$name/bin/cgbench" | grep -q NEEDED; then
    say "error: the static cgbench needs shared libraries"
    exit 1
  fi
  tar -C "$work" --owner=0 --group=0 --sort=name -czf "$out/$name.tar.gz" "$name"
  sums+=("$name.tar.gz")
fi

if [ "$what" != static ]; then
  say "building the .deb for $release"
  build "$work/deb"
  (cd "$work/deb" && cpack -G DEB -D "CPACK_DEBIAN_PACKAGE_RELEASE=1~$release" >cpack.log 2>&1) ||
    { cat "$work/deb/cpack.log" >&2; say "error: cpack failed"; exit 1; }
  for deb in "$work"/deb/*.deb; do
    cp "$deb" "$out/"
    sums+=("$(basename "$deb")")
  done
fi

for f in "${sums[@]}"; do
  (cd "$out" && sha256sum "$f") >>"$out/SHA256SUMS"
  say "$out/$f"
done
