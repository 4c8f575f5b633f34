#!/usr/bin/env bash
# Holds scripts/install-deps.sh's package table against a Debian root: every package the
# table names for RELEASE (`install-deps.sh --list --all`) must be one the root's apt knows
# (`apt-cache show`), so a renamed or dropped package fails here, in the lane that made the
# root, before a user's first command meets it. The root's package lists are fetched first
# when it has none (a root made without packages).
# Usage: check_package_table.sh ROOT RELEASE      e.g. BUILD/tests/roots/trixie debian-13
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${1:?usage: check_package_table.sh ROOT RELEASE}"
release="${2:?usage: check_package_table.sh ROOT RELEASE}"
mapfile -t names < <(CGBENCH_RELEASE="$release" "$here/../../scripts/install-deps.sh" --list --all)
[ ${#names[@]} -gt 10 ] || { echo "FAIL: the table lists only ${#names[@]} packages for $release" >&2; exit 1; }
missing="$("$here/in-root.sh" "$root" -- sh -c '
  if [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep _Packages)" ]; then apt-get update -qq >/dev/null 2>&1; fi
  for p in "$@"; do
    apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || echo "$p"
  done' sh "${names[@]}")"
if [ -n "$missing" ]; then
  echo "FAIL: scripts/install-deps.sh names packages that $release does not have:" $missing >&2
  exit 1
fi
echo "package table: all ${#names[@]} packages named for $release exist in its archive"
