#!/usr/bin/env bash
# repeatability_warnings.sh — the false-positive rate of the single-run repeatability
# warnings (runner/repeatability.hpp) and of the threads warning: every example of
# examples/cgbench.toml and every test program, measured once (as their tests run them), and
# whether a warning that counts may not repeat was printed; then each measured 3 more times
# (--verify 3), to tell a false alarm (warned, but exact) from a true one.
#
# Usage: bench/repeatability_warnings.sh        (SKIP_BUILD=1 to skip building)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
bench_machine "one run, then --verify 3"
echo
cd "$TMP"
printf 'x %.0s' {1..2000} >"$TMP/words.txt"
cat >"$TMP/two.sh" <<S
#!/bin/sh
$PROGRAMS/workload 2000
$PROGRAMS/workload 3000
S
chmod +x "$TMP/two.sh"
programs=(
  "$PROGRAMS/workload 20000" "$PROGRAMS/print_pid 3" "$PROGRAMS/forker 3000 5000" "$PROGRAMS/grandchild $TMP/gc.pid 0"
  "$PROGRAMS/spawner 20" "$PROGRAMS/attrib normal 100000" "$PROGRAMS/exit_with 0" "$PROGRAMS/print_env $TMP/env.txt"
  "/usr/bin/python3 $ROOT/tests/programs/pydict.py" "$TMP/two.sh" "/usr/bin/sqlite3 :memory: select(1);"
  "$PROGRAMS/threads" "$PROGRAMS/nondeterministic" "$PROGRAMS/seeded_hash 3000" "$PROGRAMS/timed_loop 30"
)
printf '| %-44s | %-7s | %-10s |\n' program warned "--verify 3"
printf '|%s|%s|%s|\n' "----------------------------------------------" "---------" "------------"
judge() {  # LABEL JSON-ONE JSON-VERIFY
  python3 - "$@" <<'PY'
import json, sys
label, one, three = sys.argv[1:4]
def load(p):
    try: return json.load(open(p))
    except Exception: return None
a, b = load(one), load(three)
if a is None or b is None:
    print("| %-44s | %-7s | %-10s |" % (label[:44], "error", "")); sys.exit()
for i, r in enumerate(a["benchmarks"]):
    warned = any("--verify" in w or "threads" in w for w in r.get("warnings", []))
    v = b["benchmarks"][i] if i < len(b["benchmarks"]) else {}
    name = label if len(a["benchmarks"]) == 1 else r["name"]
    # A benchmark that failed (exit status, crash) tells nothing about repeatability.
    if v.get("status") != "ok" and "not repeatable" not in (v.get("error") or ""):
        print("| %-44s | %-7s | %-10s |" % (name[:44], "yes" if warned else "no", "failed"))
        print("FAILED %s: %s" % (name, v.get("error")), file=sys.stderr)
        continue
    exact = v.get("status") == "ok"
    print("| %-44s | %-7s | %-10s |" % (name[:44], "yes" if warned else "no", "exact" if exact else "differ"))
    print(("FALSE " if warned and exact else "MISSED " if not warned and not exact else "OK ") + name, file=sys.stderr)
PY
}
{
  "$CGBENCH" run --no-db -q -j1 --suite "$EXAMPLES/cgbench.toml" --format json >"$TMP/ex1.json" 2>/dev/null || true
  "$CGBENCH" run --no-db -q -j1 --verify 3 --suite "$EXAMPLES/cgbench.toml" --format json >"$TMP/ex3.json" 2>/dev/null || true
  judge examples "$TMP/ex1.json" "$TMP/ex3.json"
  for p in "${programs[@]}"; do
    read -r -a argv <<<"$p"
    "$CGBENCH" run --no-db -q --format json -- "${argv[@]}" >"$TMP/one.json" 2>/dev/null || true
    "$CGBENCH" run --no-db -q --verify 3 --format json -- "${argv[@]}" >"$TMP/three.json" 2>/dev/null || true
    judge "$(basename "${argv[0]}") ${argv[*]:1}" "$TMP/one.json" "$TMP/three.json"
  done
} 2>"$TMP/verdicts"
echo
echo "false alarms (warned, but 4 runs gave the same counts): $(grep -c '^FALSE' "$TMP/verdicts" || true)"
echo "missed (not warned, but the counts differed): $(grep -c '^MISSED' "$TMP/verdicts" || true)"
grep -v '^OK' "$TMP/verdicts" || true
