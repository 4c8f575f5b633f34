#!/usr/bin/env bash
# The size of the source lines each result keeps (BenchmarkResult::lines): for every result of
# the example suite, of a real C++ program with debug info (cgbench itself, comparing two
# result files) and of a Debian program without it (sqlite3: only the loader's lines, libc6-dbg): how many lines were kept, the
# bytes of "lines" in the result JSON (compact) against the whole result's bytes, and the
# bytes of the lines the SQLite history keeps (in each result's `data` document) against the
# row's document. One run each (the sizes do not vary).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
bench_machine "one run each"

ex="$TMP/examples.json"
"$CGBENCH" run -q --suite "$EXAMPLES/cgbench.toml" --out "$ex" >/dev/null
"$CGBENCH" run -q --name "real/cgbench-compare" --out "$TMP/real.json" -- \
    "$CGBENCH" compare --no-db --format json "$ex" "$ex" >/dev/null
sqlite="$(command -v sqlite3)"
"$CGBENCH" run -q --name "real/sqlite3 (Debian)" --out "$TMP/nodebug.json" -- \
    "$sqlite" :memory: "create table t(x); insert into t values (1); select * from t;" >/dev/null

echo
printf '%-28s %6s %12s %12s %12s %12s\n' result lines "file:lines" "file:result" "db:lines" "db:data"
for f in "$ex" "$TMP/real.json" "$TMP/nodebug.json"; do
    jq -r '.benchmarks[] | [.name, (.lines // [] | length), (.lines // [] | tojson | utf8bytelength),
           (tojson | utf8bytelength), (.line_info // "unknown")] | @tsv' "$f"
done | while IFS=$'\t' read -r name kept lines_bytes result_bytes info; do
    row="$(sqlite3 "$CGBENCH_DB" "SELECT COALESCE(length(json_extract(data, '\$.lines')), 0),
           length(data) FROM results WHERE name = '${name//\'/\'\'}' ORDER BY run DESC LIMIT 1")"
    printf '%-28s %6s %12s %12s %12s %12s%s\n' "$name" "$kept" "$lines_bytes" "$result_bytes" \
        "${row%%|*}" "${row##*|}" "$([ "$info" = false ] && echo '  (no line information)')"
done
echo
echo "file: bytes in the result file (compact JSON); db: bytes in the SQLite history's row"
echo "(the history keeps 10 lines, cost and Ir only); the history file: $(stat -c %s "$CGBENCH_DB") bytes"
