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
"$ROOT/bench/in-debian13.sh" run_suite_in_root.sh >/dev/null
cp "$BUILD/tests/roots/trixie-build/debian13.json" "$out/debian13.json"
python3 - "$out/debian12.json" "$out/debian13.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
fa, fb = a["run"]["fingerprint"], b["run"]["fingerprint"]
def env(f):
    return f'valgrind {f["valgrind_version"]}, glibc {f["glibc_version"]}, {"; ".join(f.get("compilers", [])) or "?"}'
print(f"Debian 12: {env(fa)}")
print(f"Debian 13: {env(fb)}")
by_name = {r["name"]: r for r in b["benchmarks"]}
print()
print(f'| {"benchmark":<34} | {"tool (12 / 13)":<23} | {"Ir Debian 12":>14} | {"Ir Debian 13":>14} | {"Ir change":>9} | {"cost Debian 12":>15} | {"cost Debian 13":>15} | {"cost change":>11} |')
print("|" + "|".join(["---"] + ["---"] + ["--:"] * 6) + "|")
for r in a["benchmarks"]:
    s = by_name.get(r["name"])
    if s is None or r.get("status") != "ok" or s.get("status") != "ok":
        print(f'| {r["name"]:<34} | not measured on both |')
        continue
    ia, ib = r["events"]["Ir"], s["events"]["Ir"]
    ca, cb = r["cost"], s["cost"]
    pct = lambda x, y: f"{(y - x) / x * 100:+.2f}%" if x else "-"
    print(f'| {r["name"]:<34} | {r["tool"] + " / " + s["tool"]:<23} | {ia:>14,} | {ib:>14,} | {pct(ia, ib):>9} | {ca:>15,} | {cb:>15,} | {pct(ca, cb):>11} |')
PY
