#!/usr/bin/env bash
# The README's quick start on a fresh machine: a clean root of SUITE (bookworm: Debian 12,
# trixie: Debian 13) holding a minimal system and git, as a new user's machine has, a clone of
# this source tree in it, and exactly the README's two commands, as root:
#   scripts/run-examples.sh   must print a line per stage and the build's progress, build
#                             cgbench and the examples but no test, and end with the example
#                             table, every benchmark ok;
#   scripts/test.sh           must pass (skipped with ONLY_FIRST=1, as bench/quick_start.sh
#                             does to time the first command).
# The machine is an overlay of a cached base root (BUILD/tests/roots/SUITE-quick-base), gone
# with its mount namespace. Packages are downloaded into APT_ARCHIVES (default: kept in
# BUILD/tests/roots/apt-archives-quick-SUITE; an empty directory makes it a true first run).
# The last line gives the first command's wall and CPU time and the second's result.
#
# Opt-in, with the fresh-root lanes (CGBENCH_FRESH_ROOTS=1): it installs every package and
# builds and tests the whole project in the root; otherwise it exits 77 with one line saying
# how to run it. Without root, debootstrap or a mirror it skips naming the cause.
# Usage: test_quick_start.sh BUILD_DIR bookworm|trixie
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: test_quick_start.sh BUILD_DIR SUITE}" && pwd)"
suite="${2:?usage: test_quick_start.sh BUILD_DIR SUITE}"
if [ "${CGBENCH_FRESH_ROOTS:-0}" != 1 ]; then
  echo "SKIPPED: the quick-start lane installs, builds and tests everything in a fresh" \
    "$suite root (half an hour); run it with CGBENCH_FRESH_ROOTS=1 ctest -R Roots.quick_start"
  exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }
roots="$build/tests/roots"
base="$roots/$suite-quick-base"
"$here/debian-root.sh" "$suite" "$base" git
# shellcheck source=fresh_machine.sh
source "$here/fresh_machine.sh"
scratch="$roots/quick-$suite"
archives="${APT_ARCHIVES:-$roots/apt-archives-quick-$suite}"
rm -rf "$scratch"
mkdir -p "$scratch" "$archives/partial"

# The clone: this source tree as it is (committed or not), as a repository the user clones.
repo="$scratch/cgbench.git"
mkdir -p "$scratch/src"
(cd "$source_dir" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$scratch/src")
git -C "$scratch/src" init -q -b main
git -C "$scratch/src" add -A
git -C "$scratch/src" -c user.name=test -c user.email=test@example.invalid commit -q -m source
git clone -q --bare "$scratch/src" "$repo"

# Inside: the clone, the first command timed (wall and the CPU of everything it ran), then
# the second unless ONLY_FIRST. `times` prints the shell's and its children's CPU.
inner='
set -u
git clone -q /repo /root/cgbench && cd /root/cgbench || exit 90
start=$(date +%s.%N)
code=0
scripts/run-examples.sh >/out/first.log 2>&1 || code=$?
end=$(date +%s.%N)
echo "$code $start $end" >/out/first.status
times >/out/first.times
ls build/tests/cgbench_unit_tests build/tests/cgbench_e2e_tests >/out/tests-built.txt 2>/dev/null || true
[ "$code" -eq 0 ] || exit 91
[ "${ONLY_FIRST:-0}" = 1 ] && exit 0
code=0
scripts/test.sh >/out/second.log 2>&1 || code=$?
echo "$code" >/out/second.status
exit "$code"'
code=0
on_fresh_machine "$scratch/machine" "$base" "$here/in-root.sh" "$scratch/machine/root" \
  --bind "$repo:/repo" --bind "$scratch:/out" --bind "$archives:/var/cache/apt/archives" \
  --env "ONLY_FIRST=${ONLY_FIRST:-0}" -- bash -c "$inner" >"$scratch/lane.log" 2>&1 || code=$?

first="$scratch/first.log"
[ -f "$first" ] || { cat "$scratch/lane.log" >&2; fail "the clone or the first command did not start ($code)"; }
read -r first_code start end <"$scratch/first.status"
if [ "$first_code" -ne 0 ]; then
  tail -n 60 "$first" >&2
  fail "scripts/run-examples.sh exited $first_code in a fresh $suite root"
fi
for stage in "run-examples: [1/3]" "run-examples: [2/3]" "run-examples: [3/3]" \
             "build.sh: building cgbench examples" "result file:"; do
  grep -qF -- "$stage" "$first" || fail "the first command did not print '$stage'"
done
grep -qE '^  \[ *[0-9]+%\] ' "$first" || fail "the first command printed no build progress"
[ -s "$scratch/tests-built.txt" ] && fail "the first command built the tests: $(cat "$scratch/tests-built.txt")"
benchmarks="$(grep -cE '^[a-z0-9-]+/[A-Za-z0-9_/-]+ +ok ' "$first" || true)"
failed="$(grep -cE '^[a-z0-9-]+/[A-Za-z0-9_/-]+ +(failed|timeout) ' "$first" || true)"
[ "$benchmarks" -ge 20 ] && [ "$failed" -eq 0 ] ||
  { tail -n 40 "$first" >&2; fail "the example table has $benchmarks ok and $failed failed rows"; }
wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
# The second line of `times`: the children's user and system time, e.g. "4m1.2s 0m30.1s".
cpu="$(sed -n 2p "$scratch/first.times" | awk '
  function secs(t,  m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
  { printf "%.0f", secs($1) + secs($2) }')"
summary="first command $(printf '%.0f' "$wall") s wall, $cpu s CPU ($benchmarks benchmarks ok)"
if [ "${ONLY_FIRST:-0}" != 1 ]; then
  second="$(tail -n 400 "$scratch/second.log" 2>/dev/null | grep -E 'tests passed|tests failed' | tail -n 1)"
  if [ "$code" -ne 0 ]; then
    sed -n '/The following tests FAILED/,$p' "$scratch/second.log" >&2 || tail -n 60 "$scratch/second.log" >&2
    fail "scripts/test.sh failed in a fresh $suite root ($summary; ${second:-no ctest summary})"
  fi
  summary="$summary; second command: $second"
fi
echo "quick start on a fresh $suite root ($(cut -d' ' -f1-3 /proc/loadavg) load): $summary"
