#!/usr/bin/env bash
# run_suite_in_root.sh — the example suite as bench/cross_platform.sh measures it, inside a
# platform lane's root (bench/in-platform.sh SUITE runs it there): the examples built in the
# root (/build/OUT_NAME.json, default debian13), and the host's own build of them
# (/build/OUT_NAME-debian12-binaries.json, for Debian 13 /build/debian12-binaries.json; without
# the Google Benchmark binaries, whose Debian 12 library the root does not have).
set -euo pipefail
name="${OUT_NAME:-debian13}"
/build/src/cgbench run -q --no-db -j1 --suite /build/examples/cgbench.toml --out "/build/$name.json" || true
# The suite next to the host's programs (its commands are relative to it), [[gbench]] left out.
suite="/host-build/examples/.cgbench-${OUT_NAME:-debian13}.toml"
trap 'rm -f "$suite"' EXIT
awk '/^\[\[/ { skip = ($0 == "[[gbench]]") } !skip' /host-build/examples/cgbench.toml >"$suite"
other=/build/debian12-binaries.json
[ "$name" = debian13 ] || other="/build/$name-debian12-binaries.json"
/build/src/cgbench run -q --no-db -j1 --suite "$suite" --out "$other" || true
