#!/usr/bin/env bash
# quick_start.sh — the README's first command on fresh machines: clone to the example table
# (scripts/run-examples.sh) in clean Debian 12 and Debian 13 roots holding a minimal system
# and git, with an empty package cache, so apt downloads every package as on a new machine.
# Wall time and the CPU time of everything the command ran, per release, side by side; the
# machine's load is printed with them (the CPUs may be shared). It runs the quick-start lane
# (tests/roots/test_quick_start.sh) with ONLY_FIRST=1.
#
# Needs root, debootstrap and the Debian mirror of the apt configuration (as the lane).
# Usage: bench/quick_start.sh [SUITE...]      (default: bookworm trixie)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_machine "each: a fresh root, an empty package cache, scripts/run-examples.sh from a clone"
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(bookworm trixie)
for suite in "${suites[@]}"; do
  echo "load before $suite: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
  archives="$TMP/apt-archives-$suite"
  code=0
  CGBENCH_FRESH_ROOTS=1 ONLY_FIRST=1 APT_ARCHIVES="$archives" \
    "$ROOT/tests/roots/test_quick_start.sh" "$BUILD" "$suite" >"$TMP/$suite.log" 2>&1 || code=$?
  if [ "$code" -ne 0 ]; then
    tail -n 30 "$TMP/$suite.log" >&2
    echo "bench: the quick start failed on $suite ($code)" >&2
    exit 1
  fi
  echo "$suite: $(tail -n 1 "$TMP/$suite.log" | sed 's/^quick start on a fresh //'); $(du -sh "$archives" | cut -f1) of packages downloaded"
done
