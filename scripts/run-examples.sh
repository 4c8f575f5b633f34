#!/usr/bin/env bash
# The main job: installs what is missing, builds cgbench and the examples (only those: the
# tests are built by scripts/test.sh), and measures the example suite
# (examples/cgbench.toml, copied next to the built programs) with one `cgbench run --suite`:
# all benchmarks in parallel, one table. The result goes to ./cgbench-results/examples.json.
# A line per stage, with the build's progress. Extra arguments go to `cgbench run` (e.g. -j1,
# --filter).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
start=$SECONDS

say() { echo "run-examples: $*" >&2; }
say "[1/3] installing what is missing (the packages of $("$root/scripts/install-deps.sh" --release))"
"$root/scripts/install-deps.sh" --examples
say "[2/3] building cgbench and the examples in $build"
"$root/scripts/build.sh" --deps examples --target cgbench --target examples
out="$root/cgbench-results"
mkdir -p "$out"
say "[3/3] measuring the example suite under Valgrind ($((SECONDS - start)) s so far)"
"$build/src/cgbench" run --suite "$build/examples/cgbench.toml" --out "$out/examples.json" "$@"
echo "result file: $out/examples.json"
say "done in $((SECONDS - start)) s"
