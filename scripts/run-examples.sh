#!/usr/bin/env bash
# The main job: installs what is missing, builds cgbench and the examples, measures every
# example with `cgbench run` and prints the results. Results go to ./cgbench-results/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
cgbench="$build/src/cgbench"
examples="$build/examples"
out="$root/cgbench-results"
mkdir -p "$out"

run() {
  local name="$1"; shift
  echo "== $name"
  "$cgbench" run --name "$name" --out "$out/${name//\//-}.json" -- "$@"
  echo
}
run memory-cache/linear "$examples/memory_cache" linear 1000000
run memory-cache/random "$examples/memory_cache" random 1000000
run magic-squares/direct "$examples/magic_squares" direct 200000
run magic-squares/center5 "$examples/magic_squares" center5 200000
run varint/mixed "$examples/varint" 200000 0
run varint/width1 "$examples/varint" 200000 1
echo "== sort (regions)"
"$cgbench" run --regions --name sort --out "$out/sort.json" -- "$examples/sort_regions" 100000
echo
echo "result files: $out/"
