#!/usr/bin/env bash
# scripts/install-deps.sh's package table:
#   - every release it knows lists each set, with no name twice; Ubuntu 22.04 (no toml++
#     package) refuses the sets that build cgbench, naming the package, and lists --runtime;
#   - an unknown release is exit 2 with one line naming it and the known ones;
#   - this machine's release is one it knows (the quick start must not fail at once);
#   - every Debian root the tests made in BUILD/tests/roots (the platform, pinned-Valgrind,
#     fresh-root and quick-start lanes) has every package the table names for its release
#     (tests/roots/check_package_table.sh, which the platform lanes also run when they make
#     their root). Ubuntu's names cannot be checked here (no Ubuntu archive is reachable).
# Usage: test_package_table.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
deps="$here/../../scripts/install-deps.sh"
build="$(cd "${1:?usage: test_package_table.sh BUILD_DIR}" && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }

for rel in debian-12 debian-13 debian-testing ubuntu-22.04 ubuntu-24.04; do
  for set in --runtime --build --examples --e2e --tests --valgrind-build --pinned-runtime --bench --all; do
    code=0
    out="$(CGBENCH_RELEASE=$rel "$deps" --list $set 2>"$build/deps.err")" || code=$?
    if [ "$rel" = ubuntu-22.04 ] && [[ " --build --examples --e2e --tests " == *" $set "* ]]; then
      [ "$code" -eq 2 ] && grep -q "ubuntu-22.04 has no package for tomlplusplus" "$build/deps.err" ||
        fail "$rel $set: expected the missing toml++ package named (exit $code: $(cat "$build/deps.err"))"
      continue
    fi
    [ "$code" -eq 0 ] || fail "$rel $set exited $code: $(cat "$build/deps.err")"
    [ -n "$out" ] || fail "$rel $set lists nothing"
    dup="$(sort <<<"$out" | uniq -d)"
    [ -z "$dup" ] || fail "$rel $set lists $dup twice"
    grep -qx -- - <<<"$out" && fail "$rel $set lists '-'"
  done
done
# The names that differ are the table's, not the role's.
[ "$(CGBENCH_RELEASE=debian-12 "$deps" --list --all | grep clang-rt)" = libclang-rt-14-dev ] ||
  fail "debian-12's clang runtime is not libclang-rt-14-dev"
[ "$(CGBENCH_RELEASE=debian-13 "$deps" --list --all | grep clang-rt)" = libclang-rt-19-dev ] ||
  fail "debian-13's clang runtime is not libclang-rt-19-dev"
CGBENCH_RELEASE=ubuntu-24.04 "$deps" --list --all | grep -qx chromium &&
  fail "ubuntu-24.04 lists chromium, a snap there"
code=0
CGBENCH_RELEASE=debian-11 "$deps" --list 2>"$build/deps.err" >/dev/null || code=$?
[ "$code" -eq 2 ] && grep -q "no package names for the release debian-11 (known: debian-12" "$build/deps.err" ||
  fail "an unknown release: exit $code, $(cat "$build/deps.err")"
[ "$(wc -l <"$build/deps.err")" -eq 1 ] || fail "an unknown release printed more than one line"
host="$(env -u CGBENCH_RELEASE "$deps" --release)"
env -u CGBENCH_RELEASE "$deps" --list >/dev/null || fail "this machine's release ($host) is not in the table"

checked=()
for stamp in "$build"/tests/roots/*/.cgbench-root; do
  [ -f "$stamp" ] || continue
  root="$(dirname "$stamp")"
  case "$(cut -d' ' -f1 "$stamp")" in
    bookworm) rel=debian-12 ;;
    trixie) rel=debian-13 ;;
    forky) rel=debian-testing ;;
    *) continue ;;
  esac
  "$here/check_package_table.sh" "$root" "$rel" >/dev/null || fail "the table against $root"
  checked+=("$(basename "$root") ($rel)")
done
rm -f "$build/deps.err"
echo "package table: 5 releases, every set; this machine is $host;" \
  "checked against ${#checked[@]} roots: ${checked[*]:-none made in this build tree yet}"
