#!/usr/bin/env bash
# Usage: debian-root.sh SUITE DIR [PACKAGE...]
#
# A clean Debian root file system of SUITE (bookworm, trixie, ...) at DIR, made with
# `debootstrap --variant=minbase`, with PACKAGEs installed inside it from Debian's packages:
# a fresh machine, or a second platform, for tests that run with in-root.sh. Once: a stamp
# records the suite and the packages, and a root that matches is reused (the build tree
# caches it between test runs); concurrent callers wait for each other.
#
# The package mirror is the one this machine's apt configuration uses (deb822 .sources files
# or sources.list), or CGBENCH_DEBIAN_MIRROR when set: a company mirror works as well as
# Debian's own, and no host name is written anywhere in the repository.
#
# A suite this machine's debootstrap has no script for (Debian's testing release, "forky",
# on Debian 12's debootstrap) is made with the "sid" script, which fits every release after
# the last one it knows. apt inside the root accepts a Release file past its Valid-Until
# date: a testing release's is valid for a week, and a mirror snapshot outlives that.
#
# Exits 77 (ctest's skip code) with one "SKIPPED: ..." line naming the cause when the machine
# cannot do it: not root, no debootstrap/unshare/chroot, no mirror configured, or the mirror
# unreachable. Any other failure exits 1 with the log.
set -euo pipefail
suite="${1:?usage: debian-root.sh SUITE DIR [PACKAGE...]}"
dir="${2:?usage: debian-root.sh SUITE DIR [PACKAGE...]}"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"

skip() {
  echo "SKIPPED: a Debian $suite root cannot be made here: $*" >&2
  exit 77
}

[ "$(id -u)" -eq 0 ] || skip "it needs root (debootstrap, chroot and mount namespaces)"
for tool in debootstrap unshare chroot curl; do
  command -v "$tool" >/dev/null ||
    skip "$tool is not installed (scripts/install-deps.sh --tests installs it)"
done
# shellcheck source=mirror.sh
source "$here/mirror.sh"
mirror="$(debian_mirror)" || skip "no Debian mirror in this machine's apt configuration (set CGBENCH_DEBIAN_MIRROR)"

mkdir -p "$(dirname "$dir")"
dir="$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")"
stamp="$dir/.cgbench-root"
# What the root holds: the suite, the sorted package list and this script's own version.
want="$suite $(printf '%s\n' "$@" | sort -u | tr '\n' ' ')$(sha256sum "$0" | cut -c1-16)"
exec 9>"$dir.lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

curl -sSf --connect-timeout 10 --max-time 60 -o /dev/null "$mirror/dists/$suite/Release" 2>/dev/null ||
  skip "the mirror $mirror (from the apt configuration) does not answer for $suite"

# Only a directory this script made (it has the stamp) or an empty one is ever removed.
if [ -e "$dir" ] && ! [ -f "$stamp" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
  echo "debian-root.sh: $dir exists and is not a root made by this script; remove it by hand" >&2
  exit 1
fi
rm -rf "$dir" "$dir.new"
log="$dir.log"
echo "debian-root.sh: bootstrapping Debian $suite into $dir (mirror from apt configuration)" >&2
script=()
[ -e "/usr/share/debootstrap/scripts/$suite" ] || script=(/usr/share/debootstrap/scripts/sid)
if ! debootstrap --variant=minbase "$suite" "$dir.new" "$mirror" "${script[@]}" >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "debian-root.sh: debootstrap of $suite failed (log: $log)" >&2
  exit 1
fi
# apt inside the root reads the same mirror; the host's resolver answers its lookups.
echo "deb $mirror $suite main" >"$dir.new/etc/apt/sources.list"
echo 'Acquire::Check-Valid-Until "false";' >"$dir.new/etc/apt/apt.conf.d/99cgbench-valid-until"
if [ $# -gt 0 ]; then
  echo "debian-root.sh: installing $* into the $suite root" >&2
  if ! "$here/in-root.sh" "$dir.new" -- sh -c \
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' \
      sh "$@" >>"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "debian-root.sh: installing packages into the $suite root failed (log: $log)" >&2
    exit 1
  fi
  "$here/in-root.sh" "$dir.new" -- apt-get clean >>"$log" 2>&1 || true
fi
echo "$want" >"$dir.new/.cgbench-root"
mv "$dir.new" "$dir"
