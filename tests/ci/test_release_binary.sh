#!/usr/bin/env bash
# `ci-install-cgbench.sh --binary FILE --sha256 HEX PREFIX`, what the action's
# cgbench-release input and the template's CGBENCH_RELEASE_URL run: a tarball laid out as the
# release workflow makes it (this build installed under cgbench-VERSION-linux-ARCH/):
#   - without --sha256: exit 2, naming what is missing; a wrong SHA-256: exit 4, naming both
#     sums, and nothing installed;
#   - the right one: installed, `cgbench --version` runs from PREFIX, the stamp is the cache
#     key `--sha256 HEX --key` prints;
#   - again into the same PREFIX (a cache hit): nothing unpacked, the cached one used;
#   - a pinned Valgrind's directory in PREFIX survives a new release being installed.
# Usage: test_release_binary.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: test_release_binary.sh BUILD_DIR}" && pwd)"
install="$src/scripts/ci-install-cgbench.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
work="$(mktemp -d "$build/tests/release-binary.XXXXXX")"
trap 'rm -rf "$work"' EXIT
name="cgbench-0.0.0-linux-$(uname -m)"
cmake --install "$build" --prefix "$work/$name" >/dev/null
tar -C "$work" -czf "$work/release.tar.gz" "$name"
sha="$(sha256sum "$work/release.tar.gz" | cut -d' ' -f1)"
prefix="$work/prefix"

code=0
"$install" --binary "$work/release.tar.gz" "$prefix" 2>"$work/err" || code=$?
[ "$code" -eq 2 ] && grep -q "needs --sha256" "$work/err" || fail "no --sha256: exit $code, $(cat "$work/err")"
code=0
"$install" --binary "$work/release.tar.gz" --sha256 "${sha%?}0" "$prefix" 2>"$work/err" || code=$?
[ "$code" -eq 4 ] && grep -q "has SHA-256 $sha, not ${sha%?}0" "$work/err" ||
  fail "a wrong SHA-256: exit $code, $(cat "$work/err")"
[ ! -e "$prefix/bin/cgbench" ] || fail "a tarball with the wrong SHA-256 was installed"

"$install" --binary "$work/release.tar.gz" --sha256 "$sha" "$prefix" 2>"$work/err" ||
  fail "installing the release: $(cat "$work/err")"
grep -q "SHA-256 checked" "$work/err" || fail "the install did not say the checksum was checked"
"$prefix/bin/cgbench" --version >/dev/null || fail "the installed cgbench does not run"
[ "$(cat "$prefix/.cgbench-install")" = "$("$install" --sha256 "$sha" --key "$src")" ] ||
  fail "the stamp is not the cache key"
mkdir -p "$prefix/valgrind/bin"
touch "$prefix/valgrind/bin/kept"
"$install" --binary "$work/release.tar.gz" --sha256 "$sha" "$prefix" 2>"$work/err"
grep -q "using the cached released" "$work/err" || fail "a cache hit unpacked again: $(cat "$work/err")"
rm "$prefix/.cgbench-install"  # another release: unpacked over it
"$install" --binary "$work/release.tar.gz" --sha256 "$sha" "$prefix" 2>"$work/err"
[ -e "$prefix/valgrind/bin/kept" ] || fail "installing a release removed the pinned Valgrind"
echo "released binary: a wrong checksum refused (exit 4), the right one installed and then reused"
