#!/usr/bin/env bash
# threads.sh — does a deterministic 4-thread program repeat under Valgrind's --fair-sched=yes?
#
# cgbench runs every program with --fair-sched=yes (threads take turns round-robin instead of
# racing for Valgrind's lock). This builds bench/threads.cpp (4 std::threads, joined, no raced
# counter) and measures it $RUNS times (default 20) with `cgbench run --verify`, then prints
# each event's min, max and spread and how many distinct costs the runs gave; for reference the
# same for a single-threaded program. Nothing fixed is expected: it documents the behaviour.
#
# Usage: bench/threads.sh          Env: RUNS=N (default 20), SKIP_BUILD=1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-20}"
bench_init
bench_build
g++ -O2 -pthread -o "$TMP/threads" "$ROOT/bench/threads.cpp"
bench_machine "$RUNS runs (--verify $RUNS --keep-raw)"
echo

spread() {  # PROGRAM...: the event table of RUNS kept runs
    rm -rf "$TMP/raw" && mkdir -p "$TMP/raw"
    "$CGBENCH" run -q --no-db --warmup 0 --verify "$RUNS" --keep-raw "$TMP/raw" --name t -- "$@" \
        >/dev/null 2>&1 || true
    python3 - "$TMP/raw" <<'PY'
import glob, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/t*.cachegrind.out")):
    events = summary = None
    for line in open(f):
        if line.startswith("events:"): events = line.split()[1:]
        if line.startswith("summary:"): summary = [int(x) for x in line.split()[1:]]
    rows.append(dict(zip(events, summary)))
cost = lambda r: (r["Ir"] + r["Dr"] + r["Dw"]) + 4 * (r["I1mr"] + r["D1mr"] + r["D1mw"]) \
    + 30 * (r["ILmr"] + r["DLmr"] + r["DLmw"])
print(f"  {'event':<6} {'min':>12} {'max':>12} {'spread':>9}")
for e in rows[0]:
    v = [r[e] for r in rows]
    print(f"  {e:<6} {min(v):>12,} {max(v):>12,} {max(v) - min(v):>9,}")
costs = {cost(r) for r in rows}
print(f"  {len(rows)} runs, {len(costs)} distinct costs, spread {max(costs) - min(costs):,}")
PY
}

echo "4 threads (bench/threads.cpp):"
spread "$TMP/threads"
echo
echo "1 thread (build/examples/varint 200000 0):"
spread "$EXAMPLES/varint" 200000 0
