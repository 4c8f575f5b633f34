#!/usr/bin/env bash
# ci_install.sh — the GitHub action's install step on fresh machines: its wall time on a
# cache miss (machine A: build packages installed, cgbench built from source) and on a cache
# hit (machine B, a second fresh Debian 12 root restoring what A built: Valgrind and git
# installed, nothing built), and the size of the cached static executable. It runs the
# fresh-root test (tests/roots/test_ci_fresh_root.sh action) with an empty package cache,
# so the miss downloads every package like a real first run; RUNS=N repeats it.
#
# Needs root, debootstrap and the Debian mirror of the apt configuration (as the test).
# Usage: bench/ci_install.sh
# Env:   RUNS=N (default 1), SKIP_BUILD=1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-1}"
bench_init
bench_build
bench_machine "each run: a fresh root per machine, an empty package cache; $RUNS run(s)"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
for run in $(seq 1 "$RUNS"); do
    archives="$TMP/apt-archives-$run"
    code=0
    CGBENCH_FRESH_ROOTS=1 APT_ARCHIVES="$archives" BUILT_CACHE="$TMP/built-$run" \
        "$ROOT/tests/roots/test_ci_fresh_root.sh" "$BUILD" action \
        >"$TMP/run.log" 2>&1 || code=$?
    if [ "$code" -ne 0 ]; then
        tail -n 30 "$TMP/run.log" >&2
        echo "bench: the fresh-root run failed ($code)" >&2
        exit 1
    fi
    line="$(tail -n 1 "$TMP/run.log")"
    echo "run $run: ${line#fresh roots (action): }; $(du -sh "$archives" | cut -f1) of packages downloaded"
done
