#!/usr/bin/env bash
# python.sh — Python measured through its #! line, repeatably, and what its first run costs.
#
#  1. Ir and cost of a hello-world script run as `./hello.py` (`#!/usr/bin/env python3`) and
#     of the bare interpreter running it (`python3 hello.py`), side by side: `env` execs
#     python3 in the same process, and only the program it became is counted.
#  2. The spread (max - min) of every event over $RUNS (default 20) separate invocations of the
#     example suite's Python benchmark (python/word-count). Goal: 0.
#  3. First-run effects: a script that imports a local module, on a fresh copy, measured
#     twice with `--warmup 0` (Python compiles the module and writes __pycache__ during the
#     first measured run) and twice with the default `--warmup 1`; and the alternative
#     mechanism, PYTHONDONTWRITEBYTECODE=1 with an empty PYTHONPYCACHEPREFIX (every run
#     compiles every module it imports, the standard library included); and the wall time
#     the native warm-up run adds.
#
# Usage: bench/python.sh            Env: RUNS=N (default 20), SKIP_BUILD=1, PYTHON=python3
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-20}"
bench_init
bench_build
python="$(command -v "${PYTHON:-python3}")"
bench_machine "$RUNS separate invocations"
echo "python:   $("$python" --version) ($python)"
echo

# The caller's PATH decides which python3 `env` finds; pin it to the interpreter measured.
export PATH="$(dirname "$python"):/usr/bin:/bin"
json() { "$CGBENCH" run -q --no-db --format json "$@"; }
field() { "$python" -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print('"$1"')'; }

mkdir -p "$TMP/hello"
printf '#!/usr/bin/env python3\nprint("hello")\n' >"$TMP/hello/hello.py"
chmod +x "$TMP/hello/hello.py"
echo "1. hello world"
printf '%-34s %14s %14s\n' "command" "Ir" "cost"
for c in "./hello.py" "$python hello.py"; do
    # shellcheck disable=SC2086  # the command is split on purpose
    out="$(cd "$TMP/hello" && json -- $c)"
    printf '%-34s %14s %14s\n' "$c" "$(field 'format(b["events"]["Ir"], ",")' <<<"$out")" \
        "$(field 'format(b["cost"], ",")' <<<"$out")"
done
echo

echo "2. python/word-count of the example suite, $RUNS invocations"
for ((i = 0; i < RUNS; i++)); do
    json --suite "$EXAMPLES/cgbench.toml" --filter '^python/word-count$' |
        field 'json.dumps(b["events"], sort_keys=True) + " " + str(b["cost"])' >>"$TMP/runs"
done
"$python" - "$TMP/runs" <<'PY'
import json, sys
rows = [line.rsplit(" ", 1) for line in open(sys.argv[1])]
events = [json.loads(r[0]) for r in rows]
costs = [int(r[1]) for r in rows]
print(f"{'event':<6} {'min':>14} {'max':>14} {'spread':>7}")
for e in events[0]:
    vals = [x[e] for x in events]
    print(f"{e:<6} {min(vals):>14,} {max(vals):>14,} {max(vals) - min(vals):>7,}")
print(f"{'cost':<6} {min(costs):>14,} {max(costs):>14,} {max(costs) - min(costs):>7,}"
      f"   distinct results: {len(set(r[0] for r in rows))} of {len(rows)}")
PY
echo

echo "3. first run of a fresh copy (a script importing a local module)"
fresh() {  # a new copy without __pycache__
    rm -rf "$TMP/app"
    mkdir -p "$TMP/app"
    printf 'def table(n):\n    return {("k%%d" %% i): i for i in range(n)}\n' >"$TMP/app/helper.py"
    printf 'import helper\nprint(len(helper.table(500)))\n' >"$TMP/app/main.py"
}
ir() { (cd "$TMP/app" && json "$@" -- "$python" main.py | field 'format(b["events"]["Ir"], ",")'); }
printf '%-58s %14s %14s\n' "mechanism" "1st run Ir" "2nd run Ir"
fresh
printf '%-58s %14s %14s\n' "none (--warmup 0)" "$(ir --warmup 0)" "$(ir --warmup 0)"
fresh
printf '%-58s %14s %14s\n' "native warm-up run (--warmup 1, the default)" "$(ir)" "$(ir)"
fresh
mkdir -p "$TMP/empty-prefix"
nocache=(--warmup 0 --env PYTHONDONTWRITEBYTECODE=1 --env "PYTHONPYCACHEPREFIX=$TMP/empty-prefix")
printf '%-58s %14s %14s\n' "PYTHONDONTWRITEBYTECODE=1 + empty PYTHONPYCACHEPREFIX" \
    "$(ir "${nocache[@]}")" "$(ir "${nocache[@]}")"
fresh
ir >/dev/null
for ((i = 0; i < 5; i++)); do
    (cd "$TMP/app" && time_cmd "$TMP/native.times" "$python" main.py)
    (cd "$TMP/app" && time_cmd "$TMP/w0.times" "$CGBENCH" run -q --no-db --warmup 0 -- "$python" main.py)
    (cd "$TMP/app" && time_cmd "$TMP/w1.times" "$CGBENCH" run -q --no-db -- "$python" main.py)
done
echo
printf '%-40s %10s\n' "wall time (median of 5)" "seconds"
printf '%-40s %10s\n' "python3 main.py, natively" "$(median "$TMP/native.times")"
printf '%-40s %10s\n' "cgbench run --warmup 0" "$(median "$TMP/w0.times")"
printf '%-40s %10s\n' "cgbench run (--warmup 1)" "$(median "$TMP/w1.times")"
