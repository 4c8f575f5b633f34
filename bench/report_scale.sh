#!/usr/bin/env bash
# report_scale.sh — the HTML report of a large history: 100 benchmarks x 1,000 commits (the
# history of history_scale.sh (scale_history in lib.sh), smaller), with the default --last 50 and with every result
# (--last 1000):
#   - wall time of `cgbench report --html` (median of $RUNS, interleaved),
#   - the file's size,
#   - the time headless chromium takes to load it: navigation to the load event, the page's
#     own script included (tests/browser/cdp.mjs without its screenshot, median of $RUNS).
#
# Usage: bench/report_scale.sh
# Env:   BENCHES=N COMMITS=N (default 100, 1000), RUNS=N (default 5), SKIP_BUILD=1,
#        KEEP=DIR  generate the history into DIR and keep it (reused when it exists)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
BENCHES="${BENCHES:-100}"
COMMITS="${COMMITS:-1000}"
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "bench: needs chromium (apt-get install chromium)" >&2; exit 1; }
command -v node >/dev/null || { echo "bench: needs node (apt-get install nodejs)" >&2; exit 1; }

repo="${KEEP:-$TMP/repo}"
scale_history "$repo" "$BENCHES" "$COMMITS"
db="$repo/.cgbench/history.db"
cd "$repo"
lasts=(50 "$COMMITS")
for last in "${lasts[@]}"; do
    "$CGBENCH" report -q --db "$db" --last "$last" --html "$TMP/report-$last.html"  # warm-up
done
for _ in $(seq 1 "$RUNS"); do
    for last in "${lasts[@]}"; do
        time_cmd "$TMP/gen-$last" "$CGBENCH" report -q --db "$db" --last "$last" \
            --html "$TMP/report-$last.html"
        CDP_SCREENSHOT=0 CDP_TIMEOUT_MS=600000 node "$ROOT/tests/browser/cdp.mjs" "$browser" "file://$TMP/report-$last.html" \
            "$TMP/page-$last" 1400x1000 >/dev/null
        grep -o '"loadMs": *[0-9]*' "$TMP/page-$last.json" | grep -o '[0-9]*$' >>"$TMP/load-$last"
    done
done

bench_machine
echo "history:  $BENCHES benchmarks x $COMMITS commits"
echo
printf '%-14s %12s %14s %14s %10s\n' "report" "bytes" "generate (ms)" "chromium load" "steps"
for last in "${lasts[@]}"; do
    gen="$(awk -v s="$(median "$TMP/gen-$last")" 'BEGIN { printf "%.0f", s * 1000 }')"
    load="$(median "$TMP/load-$last")"
    markers="$(grep -o '"cls": *"stepmark[^"]*"' "$TMP/page-$last.json" | wc -l)"
    printf '%-14s %12s %14s %11.0f ms %10s\n' "--last $last" "$(stat -c %s "$TMP/report-$last.html")" \
        "$gen" "$load" "$markers"
done
