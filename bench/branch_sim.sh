#!/usr/bin/env bash
# branch_sim.sh — what branch simulation costs in Valgrind time. Every benchmark of the
# example suite (build/examples/cgbench.toml) measured alone (`cgbench run -q --no-db -j1
# --warmup 0 --filter "^NAME(/|$)"`) without and with --branch-sim, interleaved A B A B ..., median
# wall time of $RUNS each; the ratio per benchmark and over the whole suite, and each
# benchmark's mispredicted conditional branches (Bcm, what the cost gains) and indirect ones
# (Bim, shown, not weighed).
#
# Usage: bench/branch_sim.sh
# Env:   RUNS=N (default 5), SKIP_BUILD=1 (don't run scripts/build.sh)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

suite="$EXAMPLES/cgbench.toml"
mapfile -t names < <(sed -n 's/^name = "\(.*\)"$/\1/p' "$suite")
bench_machine
echo "suite:    $suite (${#names[@]} benchmarks, each alone at -j1, no native warm-up)"
echo "load:     $(uptime | sed 's/.*load average/load average/') (start)"
echo

run_one() {  # NAME [--branch-sim]
    "$CGBENCH" run -q --no-db -j1 --warmup 0 --suite "$suite" --filter "^$1(/|$)" "${@:2}"
}

# Untimed warm-up: the page cache and cgbench's glibc probe cache; the mispredictions per
# benchmark from one run with branch simulation.
"$CGBENCH" run -q --no-db --warmup 0 --suite "$suite" --branch-sim --out "$TMP/branch.json"
printf '%-26s %10s %10s %7s %14s %14s\n' "benchmark" "off (s)" "on (s)" "ratio" "Bcm" "Bim"
for i in "${!names[@]}"; do
    for ((r = 0; r < RUNS; r++)); do
        time_cmd "$TMP/off.$i" run_one "${names[$i]}"
        time_cmd "$TMP/on.$i" run_one "${names[$i]}" --branch-sim
    done
    off="$(median "$TMP/off.$i")"
    on="$(median "$TMP/on.$i")"
    echo "$off" >>"$TMP/off.medians"
    echo "$on" >>"$TMP/on.medians"
    m="$(/usr/bin/python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
b = next((b for b in doc["benchmarks"] if b["name"] == sys.argv[2]), None)
# An entry with regions or Google Benchmark cases has no result of its own name.
print("{:,} {:,}".format(b["events"]["Bcm"], b["events"]["Bim"]) if b else "- -")' "$TMP/branch.json" "${names[$i]}")"
    # shellcheck disable=SC2086 # $m is the two counts
    printf '%-26s %10s %10s %7s %14s %14s\n' "${names[$i]}" "$off" "$on" "$(ratio "$on" "$off")" $m
done
off_total="$(awk '{ s += $1 } END { printf "%.4f", s }' "$TMP/off.medians")"
on_total="$(awk '{ s += $1 } END { printf "%.4f", s }' "$TMP/on.medians")"
printf '%-26s %10s %10s %7s\n' "suite (sum of medians)" "$off_total" "$on_total" \
    "$(ratio "$on_total" "$off_total")"
echo "(Bcm Bim \"- -\": the entry's results are its regions or Google Benchmark cases)"
echo
echo "load:     $(uptime | sed 's/.*load average/load average/') (end)"
