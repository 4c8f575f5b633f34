#!/usr/bin/env bash
# Captures what a platform's Valgrind writes, for the parser tests: the programs of this
# source tree built in ROOT (a platform lane's root) with its compiler at -O2 -g, then run
# under its Valgrind with the commands of tests/data/valgrind-3.24/README.md, the files
# written into OUT. Counts are the root's own; the parser tests compare each file with its
# own summary and totals lines, never with constants.
# Usage: capture_valgrind.sh ROOT OUT      e.g. BUILD/tests/roots/forky tests/data/valgrind-3.27
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
root="${1:?usage: capture_valgrind.sh ROOT OUT}"
out="${2:?usage: capture_valgrind.sh ROOT OUT}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
"$here/in-root.sh" "$root" --bind "$src:/src" --bind "$out:/out" -- /usr/bin/env -C /tmp bash -euc '
G="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
V="valgrind.bin"
command -v valgrind.bin >/dev/null || V=valgrind
g++ -O2 -g -o varint /src/examples/varint.cpp
gcc -O2 -g -std=c99 -I/src/include -o regions /src/tests/programs/regions.c
gcc -O2 -g -o workload /src/tests/programs/workload.c
cg() { $V --tool=cachegrind -q "$@"; }
cgl() { $V --tool=callgrind -q "$@"; }
cg --cache-sim=yes $G --cachegrind-out-file=/out/varint-cache.out ./varint 2000
cg --cache-sim=no --cachegrind-out-file=/out/varint-ir-only.out ./varint 2000
cg --cache-sim=yes --branch-sim=yes $G --cachegrind-out-file=/out/varint-branch.out ./varint 2000
cgl --cache-sim=yes $G --callgrind-out-file=/out/varint-cache.callgrind.out ./varint 2000
cgl --cache-sim=no --callgrind-out-file=/out/varint-ir-only.callgrind.out ./varint 2000
cgl --collect-atstart=no --cache-sim=yes $G --callgrind-out-file=/out/regions-nested.callgrind.out ./regions nested 3000
CGBENCH_REGION=inner cg --instr-at-start=no --cache-sim=yes $G --cachegrind-out-file=/out/regions-inner.cachegrind.out ./regions nested 3000
$V --tool=cachegrind --cache-sim=no --log-file=/out/newline-arg.log --cachegrind-out-file=/out/newline-arg.cachegrind.out ./workload 20 "a b" "c
d"
$V --tool=cachegrind --trace-sched=yes --log-file=/out/single-trace-sched.log --cachegrind-out-file=/dev/null ./varint 2000
CGBENCH_REGION= $V --tool=cachegrind --instr-at-start=no --cache-sim=yes --log-file=/out/markers-first.log --cachegrind-out-file=/dev/null ./regions nested 3000
CGBENCH_REGION="
" $V --tool=cachegrind --instr-at-start=no --trace-sched=yes --log-file=/out/markers-nested.log --cachegrind-out-file=/dev/null ./regions nested 3000
CGBENCH_REGION="
" $V --tool=cachegrind --instr-at-start=no --log-file=/out/markers-newline.log --cachegrind-out-file=/dev/null ./regions newline 3000
echo "$($V --version); $(ldd --version | head -n 1); $(g++ --version | head -n 1)"
'
