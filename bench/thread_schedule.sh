#!/usr/bin/env bash
# thread_schedule.sh — can any Valgrind scheduler setting make a multi-threaded program's
# counts repeat, and at what cost?
#
# Runs bench/threads.cpp (4 std::threads, deterministic work, joined) $RUNS times (default 10)
# under Cachegrind with cgbench's geometry, once per setting, side by side:
#   --fair-sched=yes (what cgbench passes), --fair-sched=no, --fair-sched=try,
#   --fair-sched=yes pinned to one CPU (taskset -c 0),
# and prints per setting how many distinct (Ir, cost) results the runs gave, the Ir and cost
# spread, and the median wall time. A setting that repeats shows "1 distinct".
#
# Usage: bench/thread_schedule.sh     Env: RUNS=N (default 10)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-10}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
VALGRIND="${CGBENCH_VALGRIND:-$(command -v valgrind.bin || command -v valgrind)}"
g++ -O2 -pthread -o "$TMP/threads" "$ROOT/bench/threads.cpp"
echo "valgrind: $("$VALGRIND" --version)   runs per setting: $RUNS"
echo "program: bench/threads.cpp (4 threads)"
echo

measure() {  # LABEL PREFIX-COMMAND... -- VALGRIND-OPTIONS...
    local label=$1; shift
    local prefix=()
    while [[ $1 != -- ]]; do prefix+=("$1"); shift; done
    shift
    : >"$TMP/rows"
    for i in $(seq "$RUNS"); do
        local start end
        start=$(date +%s.%N)
        "${prefix[@]}" "$VALGRIND" --tool=cachegrind --cache-sim=yes --I1=32768,8,64 \
            --D1=32768,8,64 --LL=8388608,16,64 "$@" --cachegrind-out-file="$TMP/cg.$i" \
            --log-file=/dev/null "$TMP/threads" >/dev/null
        end=$(date +%s.%N)
        echo "$(grep '^summary:' "$TMP/cg.$i" | cut -d' ' -f2-) $(echo "$end - $start" | bc)" \
            >>"$TMP/rows"
    done
    python3 - "$label" "$TMP/rows" <<'PY'
import statistics, sys
label, path = sys.argv[1], sys.argv[2]
rows = [list(map(float, l.split())) for l in open(path)]
# Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw wall; cgbench's default weights 1/5/35
def cost(r):
    ram = r[2] + r[5] + r[8]; ll = r[1] + r[4] + r[7] - ram; l1 = r[0] + r[3] + r[6] - ll - ram
    return int(l1 + 5 * ll + 35 * ram)
irs = [int(r[0]) for r in rows]; costs = [cost(r) for r in rows]
print(f"{label:<34} {len(set(costs)):>3} distinct of {len(rows):<3} "
      f"Ir spread {max(irs) - min(irs):>6,}  cost spread {max(costs) - min(costs):>9,} "
      f"({(max(costs) - min(costs)) / min(costs) * 100:.3f}%)  "
      f"median wall {statistics.median(r[9] for r in rows):.2f} s")
PY
}

measure "--fair-sched=yes (cgbench)" env -- --fair-sched=yes
measure "--fair-sched=no" env -- --fair-sched=no
measure "--fair-sched=try" env -- --fair-sched=try
measure "--fair-sched=yes, taskset -c 0" taskset -c 0 -- --fair-sched=yes
