#!/usr/bin/env bash
# parallel.sh — wall time of a suite at -j2 vs -j1, and whether the counts are identical.
#
# Generates a suite of 8 benchmarks of similar size (varint over a random mix of widths,
# sizes differing by a few elements so every benchmark has its own name and numbers), then
# runs `cgbench run -q --suite` with -j1 and with -j$JOBS in the same invocation, interleaved
# (-j1 -jN -j1 -jN ...), median wall time of $RUNS runs each. Every run's result file is
# compared with the first -j1 one, benchmark by benchmark, without the wall times.
# Goal: median(-j1) / median(-jN) >= 1.85 with JOBS=2 on a 2-CPU machine. Also printed: the
# median of the per-round ratios (-j1 over the -jN run right after it), steadier when the
# machine's speed drifts between rounds.
#
# For reference, the same 8 programs also run under bare Valgrind (the flags cgbench uses),
# one at a time and $JOBS at a time (xargs -P): that ratio is what the machine delivers at
# that moment, the ceiling for cgbench's, since other load on a shared machine takes its share.
#
# Usage: bench/parallel.sh
# Env:   RUNS=N (default 3), JOBS=N (default 2), SIZE=N varints per benchmark (default
#        4000000, about 1 s under Cachegrind), SKIP_BUILD=1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-3}"
bench_init
bench_build

GOAL=1.85
JOBS="${JOBS:-2}"
SIZE="${SIZE:-4000000}"

suite="$TMP/cgbench.toml"
for i in 1 2 3 4 5 6 7 8; do
    printf '[[bench]]\nname = "varint/%s"\ncommand = ["%s/varint", "%s", "0"]\n\n' \
        "$i" "$EXAMPLES" "$((SIZE + i))"
done >"$suite"

# shellcheck disable=SC2054  # commas are part of the --I1/--D1/--LL values
vg=("$VALGRIND" --tool=cachegrind --cache-sim=yes --branch-sim=no --fair-sched=yes
    --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
    --cachegrind-out-file="$TMP/cg.%p" --log-file="$TMP/vg.%p")
for i in 1 2 3 4 5 6 7 8; do echo "$EXAMPLES/varint $((SIZE + i)) 0"; done >"$TMP/commands"
# The 8 programs under bare Valgrind, $1 at a time.
bare() { xargs -a "$TMP/commands" -P "$1" -L 1 "${vg[@]}"; }

# The benchmarks of a result file without wall times: one key per line in cgbench's output.
counts() { sed -n '/"benchmarks"/,$p' "$1" | grep -v '"wall_seconds"'; }

bench_machine
echo "suite:    8 x varint $SIZE 0 (mixed widths)"
echo

# Untimed warm-up: fills the page cache and cgbench's glibc probe cache.
time_cmd "$TMP/warmup" "$CGBENCH" run -q -j1 --suite "$suite" --out "$TMP/reference.json"

identical=yes
for ((i = 0; i < RUNS; i++)); do
    time_cmd "$TMP/bare1.times" bare 1
    time_cmd "$TMP/bare$JOBS.times" bare "$JOBS"
    for j in 1 "$JOBS"; do
        time_cmd "$TMP/j$j.times" "$CGBENCH" run -q -j"$j" --suite "$suite" --out "$TMP/run.json"
        if ! diff -q <(counts "$TMP/reference.json") <(counts "$TMP/run.json") >/dev/null; then
            identical=no
            diff <(counts "$TMP/reference.json") <(counts "$TMP/run.json") | head -n 20 >&2
        fi
    done
done

b1="$(median "$TMP/bare1.times")"
bj="$(median "$TMP/bare$JOBS.times")"
ceiling="$(ratio "$b1" "$bj")"
m1="$(median "$TMP/j1.times")"
mj="$(median "$TMP/j$JOBS.times")"
speedup="$(ratio "$m1" "$mj")"
# The same ratios round by round (each -j1 run against the -jN run right after it), whose
# median shrugs off a round in which the machine was slow for both.
paired() { paste "$1" "$2" | awk '{ printf "%.4f\n", $1 / $2 }' >"$3"; median "$3"; }
paired_speedup="$(paired "$TMP/j1.times" "$TMP/j$JOBS.times" "$TMP/paired.ratios")"
paired_ceiling="$(paired "$TMP/bare1.times" "$TMP/bare$JOBS.times" "$TMP/paired-bare.ratios")"
ok="$(awk -v v="$speedup" -v g="$GOAL" 'BEGIN { print (v >= g) ? "ok" : "UNDER GOAL" }')"

printf '%-26s %10s  %s\n' "command" "median s" "all runs (s)"
printf '%-26s %10s  %s\n' "valgrind x8, 1 at a time" "$b1" "$(paste -sd' ' "$TMP/bare1.times")"
printf '%-26s %10s  %s\n' "valgrind x8, $JOBS at a time" "$bj" "$(paste -sd' ' "$TMP/bare$JOBS.times")"
printf '%-26s %10s  %s\n' "cgbench run -j1" "$m1" "$(paste -sd' ' "$TMP/j1.times")"
printf '%-26s %10s  %s\n' "cgbench run -j$JOBS" "$mj" "$(paste -sd' ' "$TMP/j$JOBS.times")"
printf '%-26s %10s  (what the machine delivers now)\n' "ceiling: valgrind 1/$JOBS" "$ceiling"
printf '%-26s %10s  goal >= %s: %s\n' "speed-up: cgbench -j1/-j$JOBS" "$speedup" "$GOAL" "$ok"
printf '%-26s %10s  (median of the rounds: %s)\n' "per round: cgbench" "$paired_speedup" \
    "$(paste -sd' ' "$TMP/paired.ratios")"
printf '%-26s %10s  (median of the rounds: %s)\n' "per round: valgrind" "$paired_ceiling" \
    "$(paste -sd' ' "$TMP/paired-bare.ratios")"
echo "counts identical: $identical (every run vs the first -j1 run, all events of all 8 benchmarks)"
