#!/usr/bin/env bash
# cpu_baseline.sh — how much `--cpu-baseline portable` (glibc pinned to its baseline x86-64
# code paths) changes the counts compared with `--cpu-baseline native` (glibc picks the
# variants it would for Valgrind's virtual CPU), for each example workload.
#
# For every workload runs `cgbench run --format json --cpu-baseline {portable,native}` once
# (counts are deterministic) and prints Ir and cost for both, with the difference
# (native - portable) / portable in %.
# Goal: none fixed; the table documents what choosing `portable` costs in fidelity, per
# workload. Counts of one baseline must not change from run to run.
#
# Usage: bench/cpu_baseline.sh
# Env:   SKIP_BUILD=1 (don't run scripts/build.sh)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

workloads=(
    "memory_cache linear 1000000"
    "memory_cache random 1000000"
    "magic_squares direct 200000"
    "magic_squares center5 200000"
    "varint 200000 0"
    "varint 200000 1"
)

# Prints "Ir cost" of a cgbench JSON result read from stdin.
extract='import json, sys
b = json.load(sys.stdin)["benchmarks"][0]
if b.get("status") != "ok":
    sys.exit("benchmark %s: %s" % (b.get("status"), b.get("error", "")))
print(b["events"]["Ir"], b["cost"])'

measure() {  # BASELINE WORKLOAD... -> "Ir cost"
    local baseline="$1"; shift
    local prog="$1"; shift
    if ! "$CGBENCH" run --format json --cpu-baseline "$baseline" -- "$EXAMPLES/$prog" "$@" \
            >"$TMP/out.json" 2>"$TMP/err"; then
        echo "bench: cgbench failed on $prog $* ($baseline):" >&2
        cat "$TMP/err" >&2
        exit 1
    fi
    python3 -c "$extract" <"$TMP/out.json"
}

pct() {
    awk -v p="$1" -v n="$2" 'BEGIN { if (p == 0) print "n/a"; else printf "%+.2f%%\n", (n - p) * 100 / p }'
}

bench_machine | grep -v '^runs:'
echo

fmt='%-30s %14s %14s %9s %14s %14s %9s\n'
# shellcheck disable=SC2059
printf "$fmt" workload "Ir portable" "Ir native" "diff" "cost portable" "cost native" "diff"
for w in "${workloads[@]}"; do
    read -r -a args <<<"$w"
    res_p="$(measure portable "${args[@]}")"
    res_n="$(measure native "${args[@]}")"
    read -r ir_p cost_p <<<"$res_p"
    read -r ir_n cost_n <<<"$res_n"
    # shellcheck disable=SC2059
    printf "$fmt" "$w" "$ir_p" "$ir_n" "$(pct "$ir_p" "$ir_n")" \
        "$cost_p" "$cost_n" "$(pct "$cost_p" "$cost_n")"
done
