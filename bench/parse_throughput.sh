#!/usr/bin/env bash
# parse_throughput.sh — how fast cgbench reads a large cachegrind.out, next to cg_annotate
# reading the same file.
#
# Makes a cachegrind.out of at least 100 MB: Cachegrind on cgbench's own unit tests (a
# C++ program with debug info: long names, thousands of functions) gives about 1.3 MB,
# which is repeated until the file is large enough, each copy's functions renamed
# (NAME'k) so that the function table grows as it would for a larger program, and the
# summary multiplied to match. Then it times, in CPU seconds (user + system, best of
# $RUNS; the machine may be shared, and CPU time suffers less from that than wall time):
#   bench_parse            the parser alone, summary only
#   bench_parse --top      what `cgbench run` does: also the 30 costliest functions
#   bench_parse --functions  every function's costs copied out
#   cg_annotate --auto=no  Valgrind's own reader (per-function totals; no source files)
# Goals: >= 300 MB/s for `--top`, and >= 20x cg_annotate.
#
# Usage: bench/parse_throughput.sh [FILE]   (FILE: use this cachegrind.out instead)
# Env:   RUNS=N (default 5), SKIP_BUILD=1, MIN_MB=N (default 100)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

PARSE="$BUILD/bench/bench_parse"
MIN_BYTES=$(( ${MIN_MB:-100} * 1000 * 1000 ))

make_big_profile() {
    local base="$TMP/base.out" out="$1"
    "$VALGRIND" --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
        --LL=8388608,16,64 --cachegrind-out-file="$base" --log-file="$TMP/base.log" \
        "$BUILD/tests/cgbench_unit_tests" \
        --gtest_filter='CachegrindParser.*:CallgrindParser.*:ResultJson.*' >/dev/null
    local size copies
    size="$(stat -c %s "$base")"
    copies=$(( MIN_BYTES / size + 1 ))
    # %.0f: awk numbers are doubles, exact for integers below 2^53.
    awk -v K="$copies" '
        /^summary:/ { n = NF; for (i = 2; i <= NF; i++) s[i] = $i; next }
        /^(desc|cmd|events):/ { head = head $0 "\n"; next }
        { body[nb++] = $0 }
        END {
            printf "%s", head
            for (k = 0; k < K; k++)
                for (i = 0; i < nb; i++) {
                    l = body[i]
                    if (k > 0 && substr(l, 1, 3) == "fn=") l = l "\047" k
                    print l
                }
            printf "summary:"
            for (i = 2; i <= n; i++) printf " %.0f", s[i] * K
            printf "\n"
        }' "$base" >"$out"
    echo "profile:  $out, $(( size / 1000 )) kB from Cachegrind on build/tests/cgbench_unit_tests, x$copies"
}

# cpu_seconds CMD...: user + system CPU seconds of CMD (stdout discarded).
cpu_seconds() {
    local TIMEFORMAT='%3U %3S'
    { time "$@" >/dev/null 2>"$TMP/last.err"; } 2>"$TMP/time.out" || {
        echo "bench: failed: $*" >&2; tail -n 20 "$TMP/last.err" >&2; exit 1; }
    awk '{ printf "%.3f\n", $1 + $2 }' "$TMP/time.out"
}

bench_machine "best of $RUNS CPU times for bench_parse, one run of cg_annotate"
if [ $# -gt 0 ]; then file="$1"; echo "profile:  $file"; else
    file="$TMP/big.cachegrind.out"
    make_big_profile "$file"
fi
bytes="$(stat -c %s "$file")"
mb="$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')"
echo "size:     $mb MB"
echo

printf '%-26s %10s %10s %12s\n' reader "CPU s" "MB/s" "vs cg_annotate"
cat "$file" >/dev/null  # page cache
ann="$(cpu_seconds cg_annotate --auto=no "$file")"
ann_mbs="$(awk -v m="$mb" -v s="$ann" 'BEGIN { printf "%.1f", m / s }')"
for mode in "" --top --functions; do
    line="$("$PARSE" $mode --repeat "$RUNS" "$file")"
    cpu="$(sed -n 's/.*best of [0-9]*: \([0-9.]*\) s CPU.*/\1/p' <<<"$line")"
    mbs="$(awk -v m="$mb" -v s="$cpu" 'BEGIN { printf "%.0f", m / s }')"
    printf '%-26s %10s %10s %11sx\n' "bench_parse ${mode:-(summary)}" "$cpu" "$mbs" \
        "$(awk -v a="$ann" -v b="$cpu" 'BEGIN { printf "%.0f", a / b }')"
done
printf '%-26s %10s %10s %12s\n' "cg_annotate --auto=no" "$ann" "$ann_mbs" "1x"
echo
echo "goals: bench_parse --top >= 300 MB/s and >= 20x cg_annotate"
