#!/usr/bin/env bash
# run_suite_in_root.sh — the example suite as bench/cross_platform.sh measures it, inside the
# Debian 13 root (bench/in-debian13.sh runs it there): the examples built in the root
# (/build/debian13.json), and the host's own build of them (/build/debian12-binaries.json;
# without the Google Benchmark binaries, whose Debian 12 library the root does not have).
set -euo pipefail
/build/src/cgbench run -q --no-db -j1 --suite /build/examples/cgbench.toml --out /build/debian13.json || true
# The suite next to the host's programs (its commands are relative to it), [[gbench]] left out.
suite=/host-build/examples/.cgbench-debian13.toml
trap 'rm -f "$suite"' EXIT
awk '/^\[\[/ { skip = ($0 == "[[gbench]]") } !skip' /host-build/examples/cgbench.toml >"$suite"
/build/src/cgbench run -q --no-db -j1 --suite "$suite" --out /build/debian12-binaries.json || true
