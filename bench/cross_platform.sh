#!/usr/bin/env bash
# cross_platform.sh — every benchmark of the example suite (examples/cgbench.toml) measured on
# this machine (Debian 12) and inside the roots of the platform lanes whose build exists:
# Debian 13 (trixie) and Debian testing (forky), side by side: Ir on each, and the change.
# They differ in glibc (2.36 / 2.41 / 2.43), the compiler that built the examples (g++ 12 /
# 14 / 16), Valgrind (3.19 / 3.24 / 3.27; the region results also in tool: Callgrind below
# 3.22, Cachegrind from it) and Python (3.11 / 3.13 / 3.14). In each root the host's own
# binaries are measured too ("Debian 12 binary"), which separates the platform from the
# compiler. History is comparable only within one fingerprint, so these numbers are never
# compared by cgbench itself: this table shows how far apart they are.
#
# Usage: bench/cross_platform.sh    (root; run the lanes once first: CGBENCH_SECOND_PLATFORM=1
#                                     and CGBENCH_TESTING_PLATFORM=1 ctest -L platform in ./build)
# Env:   SKIP_BUILD=1, KEEP=DIR (keep the result files there)
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
files=("$out/debian12.json")
for lane in trixie:debian13 forky:testing; do
  suite="${lane%%:*}" name="${lane#*:}"
  if ! [ -x "$BUILD/tests/roots/$suite-build/src/cgbench" ]; then
    echo "(no $suite lane built: its columns are empty)"
    files+=(- -)
    continue
  fi
  BUILD="$BUILD" OUT_NAME="$name" "$ROOT/bench/in-platform.sh" "$suite" run_suite_in_root.sh >/dev/null
  other="$name-debian12-binaries.json"
  [ "$name" = debian13 ] && other=debian12-binaries.json
  cp "$BUILD/tests/roots/$suite-build/$name.json" "$out/$name.json"
  cp "$BUILD/tests/roots/$suite-build/$other" "$out/$name-debian12-binaries.json"
  files+=("$out/$name.json" "$out/$name-debian12-binaries.json")
done
python3 - "${files[@]}" <<'PY'
import json, sys
def load(p):
    return None if p == "-" else json.load(open(p))
d12, d13, d13_old, dt, dt_old = (load(p) for p in sys.argv[1:])
def env(doc):
    f = doc["run"]["fingerprint"]
    return f'valgrind {f["valgrind"]}, glibc {f["glibc"]}, {"; ".join(f.get("compilers", [])) or "?"}'
for label, doc in (("Debian 12", d12), ("Debian 13", d13), ("Debian testing", dt)):
    print(f"{label}: {env(doc) if doc else 'not measured'}")
print("Columns: Ir on Debian 12; on Debian 13 with the host's (Debian 12, g++ 12) binaries, which")
print("isolates glibc, Valgrind and the interpreters; on Debian 13 with its own build; the same two on")
print("Debian testing; the change from Debian 12 to 13 and from 13 to testing, in Ir and in cost.")
by = lambda doc: {r["name"]: r for r in doc["benchmarks"]} if doc else {}
b13, b13o, bt, bto = by(d13), by(d13_old), by(dt), by(dt_old)
pct = lambda x, y: f"{(y - x) / x * 100:+.2f}%" if x else "-"
ok = lambda r: r is not None and r.get("status") == "ok"
ir = lambda r: r["events"]["Ir"]
def cell(r, base):
    return f"{ir(r):,} ({pct(ir(base), ir(r))})" if ok(r) and ok(base) else "-"
print()
print("| benchmark | tool (12 / 13 / testing) | Ir Debian 12 | Ir 13, Debian 12 binary | Ir Debian 13 "
      "| Ir testing, Debian 12 binary | Ir Debian testing | Ir 12 → 13 | cost 12 → 13 | Ir 13 → testing | cost 13 → testing |")
print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for r in d12["benchmarks"]:
    name = r["name"]
    s, t = b13.get(name), bt.get(name)
    tools = " / ".join(x["tool"] if ok(x) else "-" for x in (r, s, t))
    i13 = f"{ir(s):,}" if ok(s) else "-"
    it = f"{ir(t):,}" if ok(t) else "-"
    ch = lambda a, b, f: pct(f(a), f(b)) if ok(a) and ok(b) else "-"
    print(f"| {name} | {tools} | {ir(r):,} | {cell(b13o.get(name), r)} | {i13} | {cell(bto.get(name), r)} | {it} "
          f"| {ch(r, s, ir)} | {ch(r, s, lambda x: x['cost'])} | {ch(s, t, ir)} | {ch(s, t, lambda x: x['cost'])} |")
PY
