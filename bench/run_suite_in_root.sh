#!/usr/bin/env bash
# run_suite_in_root.sh — the example suite as bench/cross_platform.sh measures it, inside the
# Debian 13 root (bench/in-debian13.sh runs it there): result in /build/debian13.json.
set -euo pipefail
/build/src/cgbench run -q --no-db -j1 --suite /build/examples/cgbench.toml --out /build/debian13.json || true
