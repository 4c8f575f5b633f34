#!/usr/bin/env bash
# cross_platform.sh — every benchmark of the example suite (examples/cgbench.toml) measured on
# this machine and inside the Debian 13 root of the second-platform lane, side by side: Ir and
# cost on each, and their change. The two platforms differ in glibc (2.36 / 2.41), the
# compiler that built the examples (g++ 12 / 14), Valgrind (3.19 / 3.24; the region results
# also in tool: Callgrind below 3.22, Cachegrind from it) and Python (3.11 / 3.13). History is
# comparable only within one fingerprint, so these numbers are never compared by cgbench
# itself: this table shows how far apart they are.
#
# Usage: bench/cross_platform.sh    (root; run the lane once first: CGBENCH_SECOND_PLATFORM=1
#                                     ctest -L platform in ./build)
# Env:   SKIP_BUILD=1, KEEP=DIR (keep both result files there)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
out="${KEEP:-$TMP}"
mkdir -p "$out"
# The suite as the README's first command runs it, one benchmark at a time (-j1: wall times
# are not compared here, only counts).
"$CGBENCH" run -q --no-db -j1 --suite "$EXAMPLES/cgbench.toml" --out "$out/debian12.json" || true
BUILD="$BUILD" "$ROOT/bench/in-debian13.sh" run_suite_in_root.sh >/dev/null
cp "$BUILD/tests/roots/trixie-build/debian13.json" "$BUILD/tests/roots/trixie-build/debian12-binaries.json" "$out/"
python3 - "$out/debian12.json" "$out/debian13.json" "$out/debian12-binaries.json" <<'PY'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:])
fa, fb = a["run"]["fingerprint"], b["run"]["fingerprint"]
def env(f):
    return f'valgrind {f["valgrind"]}, glibc {f["glibc"]}, {"; ".join(f.get("compilers", [])) or "?"}'
print(f"Debian 12: {env(fa)}")
print(f"Debian 13: {env(fb)}")
print("Columns: Ir on Debian 12; on Debian 13 with the host's (Debian 12, g++ 12) binaries, which")
print("isolates glibc, Valgrind and the interpreters; on Debian 13 with its own (g++ 14) build; the")
print("change from Debian 12 to Debian 13 in Ir and in cost.")
on13 = {r["name"]: r for r in b["benchmarks"]}
old_bin = {r["name"]: r for r in c["benchmarks"]}
pct = lambda x, y: f"{(y - x) / x * 100:+.2f}%" if x else "-"
ok = lambda r: r is not None and r.get("status") == "ok"
print()
print("| benchmark | tool (12 / 13) | Ir Debian 12 | Ir 13, Debian 12 binary | Ir Debian 13 | Ir change | cost change |")
print("|---|---|--:|--:|--:|--:|--:|")
for r in a["benchmarks"]:
    s, o = on13.get(r["name"]), old_bin.get(r["name"])
    if not ok(r) or not ok(s):
        print(f'| {r["name"]} | not measured on both | | | | | |')
        continue
    ia, ib = r["events"]["Ir"], s["events"]["Ir"]
    io = f'{o["events"]["Ir"]:,} ({pct(ia, o["events"]["Ir"])})' if ok(o) else "-"
    print(f'| {r["name"]} | {r["tool"]} / {s["tool"]} | {ia:,} | {io} | {ib:,} | {pct(ia, ib)} | {pct(r["cost"], s["cost"])} |')
PY
