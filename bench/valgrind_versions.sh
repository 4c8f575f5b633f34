#!/usr/bin/env bash
# valgrind_versions.sh — what a Valgrind upgrade alone moves: the same programs (this build's
# examples: Debian 12, g++ 12) on the same glibc (2.36) under three Valgrinds: this machine's
# 3.19, and 3.24 and 3.27 built from Debian's source packages (scripts/build-valgrind.sh
# trixie / testing) inside the Debian 12 root of the pinned-Valgrind lane. Prints Ir per
# benchmark under each, and for 3.24 → 3.27 the functions whose names appear under one only
# (with their cost), then what remains after cgbench matches names across versions
# (compare/function_names).
#
# Usage: bench/valgrind_versions.sh   (root; run the pinned lane once first:
#                                      CGBENCH_PINNED_VALGRIND=1 ctest -R Platform.pinned_valgrind)
# Env:   SKIP_BUILD=1, KEEP=DIR (keep the result files there)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
roots="$BUILD/tests/roots"
root="$roots/bookworm-pinned"
pinned="$roots/pinned-prefix"
[ -x "$pinned/bin/cgbench" ] || { echo "bench: run the pinned-Valgrind lane once first" >&2; exit 1; }
out="${KEEP:-$TMP}"
mkdir -p "$out" "$roots/valgrind-3.24"
# shellcheck source=../tests/roots/mirror.sh
source "$ROOT/tests/roots/mirror.sh"
in_root() {
  "$ROOT/tests/roots/in-root.sh" "$root" --bind "$ROOT:/src" --bind "$pinned:/opt/cgbench-ci" \
    --bind "$roots/valgrind-3.24:/opt/valgrind-3.24" --bind "$BUILD:/host-build" \
    --bind "$out:/out" --env "CGBENCH_DEBIAN_MIRROR=$(debian_mirror)" "$@"
}
# Valgrind 3.24 from Debian 13's source package, once (kept in the build tree).
in_root -- /src/scripts/build-valgrind.sh trixie /opt/valgrind-3.24 >"$out/build-3.24.log" 2>&1 ||
  { tail -n 20 "$out/build-3.24.log" >&2; exit 1; }
# The suite next to this build's programs, run by each Valgrind one benchmark at a time.
"$CGBENCH" run -q --no-db -j1 --suite "$EXAMPLES/cgbench.toml" --out "$out/3.19.json" || true
for v in 3.24 3.27; do
  launcher=/opt/valgrind-3.24/bin/valgrind
  [ "$v" = 3.27 ] && launcher=/opt/cgbench-ci/bin/valgrind
  in_root --env "CGBENCH_VALGRIND=$launcher" -- /opt/cgbench-ci/bin/cgbench run -q --no-db -j1 \
    --suite /host-build/examples/cgbench.toml --out "/out/$v.json" || true
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
runs = {v: json.load(open(f"{out}/{v}.json")) for v in ("3.19", "3.24", "3.27")}
for v, doc in runs.items():
    f = doc["run"]["fingerprint"]
    print(f"Valgrind {f['valgrind']}: glibc {f['glibc']}, tool of each result as chosen")
by = {v: {r["name"]: r for r in doc["benchmarks"]} for v, doc in runs.items()}
ok = lambda r: r is not None and r.get("status") == "ok"
pct = lambda a, b: f"{(b - a) / a * 100:+.2f}%" if a else "-"
print()
print("| benchmark | tool (3.19 / 3.24 / 3.27) | Ir 3.19 | Ir 3.24 | Ir 3.27 | 3.19 → 3.24 | 3.24 → 3.27 |")
print("|---|---|--:|--:|--:|--:|--:|")
for r in runs["3.19"]["benchmarks"]:
    n = r["name"]
    a, b, c = by["3.19"].get(n), by["3.24"].get(n), by["3.27"].get(n)
    if not (ok(a) and ok(b) and ok(c)):
        print(f"| {n} | not measured by all three | | | | | |")
        continue
    ir = lambda x: x["events"]["Ir"]
    print(f"| {n} | {a['tool']} / {b['tool']} / {c['tool']} | {ir(a):,} | {ir(b):,} | {ir(c):,} "
          f"| {pct(ir(a), ir(b))} | {pct(ir(b), ir(c))} |")
print()
print("Functions listed under one of 3.24 and 3.27 only (same binary, same libraries):")
for n, r in by["3.24"].items():
    s = by["3.27"].get(n)
    if not (ok(r) and ok(s)):
        continue
    fa = {(f.get("file", ""), f["name"]): f.get("cost", 0) for f in r.get("functions", [])}
    fb = {(f.get("file", ""), f["name"]): f.get("cost", 0) for f in s.get("functions", [])}
    only_a = sorted(set(fa) - set(fb))
    only_b = sorted(set(fb) - set(fa))
    if only_a or only_b:
        print(f"  {n}:")
        for k in only_a:
            print(f"    3.24 only: {k[1]} ({k[0]}) {fa[k]:,}")
        for k in only_b:
            print(f"    3.27 only: {k[1]} ({k[0]}) {fb[k]:,}")
PY
