#!/usr/bin/env bash
# The main job: installs what is missing, builds cgbench and the examples, and measures the
# example suite (examples/cgbench.toml, copied next to the built programs) with one
# `cgbench run --suite`: all benchmarks in parallel, one table. The result goes to
# ./cgbench-results/examples.json. Extra arguments go to `cgbench run` (e.g. -j1, --filter).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
out="$root/cgbench-results"
mkdir -p "$out"
"$build/src/cgbench" run --suite "$build/examples/cgbench.toml" --out "$out/examples.json" "$@"
echo "result file: $out/examples.json"
