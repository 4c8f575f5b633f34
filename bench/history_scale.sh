#!/usr/bin/env bash
# history_scale.sh — `cgbench compare` and `cgbench history NAME` on a large history:
# 1,000 benchmarks x 1,000 commits = 1,000,000 stored results (BENCHES x COMMITS).
#
# 1. A git repository with COMMITS commits on main (git fast-import).
# 2. One real `cgbench run` creates the database (schema, fingerprint, a per-benchmark JSON
#    document); SQL (sqlite3, recursive CTEs) then writes one run per commit with BENCHES
#    results each, derived from that template: names bench/0000..., Ir varied per commit
#    (each benchmark has a one-commit blip at every 20th commit, so about 10% of benchmarks
#    change between two commits, and one lasting step of 40 to 360 units at a commit of its
#    own between 100 and 900), cost and l1_hits kept consistent with it; each result gets
#    the template's functions and source lines (result_functions, result_lines, the symbols and
#    texts shared), the costliest one carrying the change. The template run is removed.
# 3. Times, median of $RUNS (default 11) runs each, interleaved:
#      compare RUN RUN          the two latest runs by id (console report)
#      compare --format json    the same, JSON report
#      compare HEAD~1 HEAD      the same runs found through git refs
#      history NAME             one benchmark's 1,000 results (console; bench/0500)
#      history NAME --format json
#      steps NAME               one benchmark's steps (console)
#      steps                    every benchmark's steps (console, and --format json)
#    Each run records its commit's facts as cgbench does (commit time, parent, subject, place
#    on the first-parent line), so `history` and `steps` order the runs by ancestry; with
#    OUT_OF_ORDER=1 the runs were measured out of commit order (each block of 10 commits
#    newest first), so that order differs from the order of measurement.
#    Goal: each <= 50 ms, `steps` of every benchmark <= 1 s. Also prints the database size,
#    the bytes per result with the kept source lines as rows of result_lines and, side by side
#    on a copy of the first SAMPLE (default 50) runs, inside each document as schema 4 kept them,
#    the CPU time of each command (user + system: what a loaded machine inflates least) and
#    how many steps `steps` found.
#
# Usage: bench/history_scale.sh
# Env:   BENCHES=N COMMITS=N (default 1000 each), RUNS=N (default 11), SKIP_BUILD=1, SAMPLE=N,
#        OUT_OF_ORDER=1 (see 2.),
#        KEEP=DIR  generate into DIR and keep it; an existing DIR is reused as it is
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-11}"
bench_init
bench_build
BENCHES="${BENCHES:-1000}"
COMMITS="${COMMITS:-1000}"
GOAL_MS=50
SAMPLE="${SAMPLE:-50}"
# When each commit's run started: in commit order, or (OUT_OF_ORDER=1) each block of ten
# commits measured newest first.
SHUFFLE_EXPR="c.n"
if [ "${OUT_OF_ORDER:-0}" = 1 ]; then SHUFFLE_EXPR="((c.n / 10) * 10 + 9 - c.n % 10)"; fi
STEPS_GOAL_MS=1000

repo="${KEEP:-$TMP/repo}"
db="$repo/.cgbench/history.db"
t0="$(date +%s.%N)"
scale_history "$repo" "$BENCHES" "$COMMITS" "$SHUFFLE_EXPR"
t1="$(date +%s.%N)"

results="$(sqlite3 "$db" 'SELECT COUNT(*) FROM results')"
read -r functions symbols < <(sqlite3 -separator ' ' "$db" \
    "SELECT (SELECT COUNT(*) FROM result_functions), (SELECT COUNT(*) FROM symbols)")
read -r head_id base_id < <(sqlite3 -separator ' ' "$db" \
    "SELECT (SELECT id FROM runs ORDER BY seq DESC LIMIT 1), (SELECT id FROM runs ORDER BY seq DESC LIMIT 1 OFFSET 1)")
bytes="$(stat -c %s "$db")"
read -r line_rows line_texts < <(sqlite3 -separator ' ' "$db" \
    "SELECT (SELECT COUNT(*) FROM result_lines), (SELECT COUNT(*) FROM line_texts)")

# The bytes per result of the two layouts of the kept source lines, side by side: rows of
# result_lines (names and texts interned; this schema) and, as schema version 4 kept them,
# inside each result's document. On a copy of the first SAMPLE runs, each vacuumed.
sample="$TMP/sample.db"
rm -f "$sample"
sqlite3 "$db" .schema | sqlite3 -bail "$sample"
sqlite3 -bail "$sample" >/dev/null <<SQL
ATTACH '$db' AS src;
INSERT INTO runs SELECT * FROM src.runs WHERE seq <= $SAMPLE;
INSERT INTO results SELECT * FROM src.results WHERE run <= $SAMPLE;
INSERT INTO symbols SELECT * FROM src.symbols;
INSERT INTO line_texts SELECT * FROM src.line_texts;
INSERT INTO result_functions SELECT * FROM src.result_functions WHERE run <= $SAMPLE;
INSERT INTO result_lines SELECT * FROM src.result_lines WHERE run <= $SAMPLE;
DETACH src;
VACUUM;
SQL
sample_results="$(sqlite3 "$sample" 'SELECT COUNT(*) FROM results')"
tables_bytes="$(stat -c %s "$sample")"
sqlite3 -bail "$sample" >/dev/null <<'SQL'
CREATE TEMP TABLE inline AS
    SELECT l.run, l.position, l.rank,
           CASE WHEN t.text IS NULL
                THEN json_object('file', s.file, 'function', s.name, 'line', l.line,
                                 'events', json_object('Ir', l.ir), 'cost', l.cost)
                ELSE json_object('file', s.file, 'function', s.name, 'line', l.line,
                                 'text', t.text, 'events', json_object('Ir', l.ir), 'cost', l.cost)
           END AS j
    FROM result_lines l JOIN symbols s ON s.id = l.symbol LEFT JOIN line_texts t ON t.id = l.text
    ORDER BY l.run, l.position, l.rank;
CREATE TEMP TABLE docs (run INTEGER, position INTEGER, lines TEXT, PRIMARY KEY (run, position));
INSERT INTO docs
    SELECT run, position, json_group_array(json(j)) FROM inline GROUP BY run, position;
UPDATE results SET data = json_set(data, '$.lines', json((SELECT lines FROM docs d
    WHERE d.run = results.run AND d.position = results.position)))
    WHERE (run, position) IN (SELECT run, position FROM docs);
DELETE FROM result_lines;
DELETE FROM line_texts;
DROP TABLE inline;
DROP TABLE docs;
VACUUM;
SQL
inline_bytes="$(stat -c %s "$sample")"
rm -f "$sample"

# The commands run in the repository (for the git refs); exit status 1 is the gate's verdict.
cd "$repo"
export TIME_MAX_STATUS=1
name="$(printf 'bench/%04d' $((BENCHES / 2)))"
cmds=(
    "compare RUN RUN|$CGBENCH compare --db $db $base_id $head_id"
    "compare RUN RUN --format json|$CGBENCH compare --db $db --format json $base_id $head_id"
    "compare HEAD~1 HEAD|$CGBENCH compare --db $db HEAD~1 HEAD"
    "history $name|$CGBENCH history --db $db $name"
    "history $name --format json|$CGBENCH history --db $db --format json $name"
    "steps $name|$CGBENCH steps --db $db $name"
    "steps|$CGBENCH steps --db $db"
    "steps --format json|$CGBENCH steps --db $db --format json"
)
time_commands "${cmds[@]}"

bench_machine
echo "history:  $results results ($BENCHES benchmarks x $COMMITS commits), generated in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
echo "functions: $functions rows ($(awk -v f="$functions" -v n="$results" 'BEGIN { printf "%.0f", f / n }') per result), $symbols symbols"
echo "lines:    $line_rows rows ($(awk -v l="$line_rows" -v n="$results" 'BEGIN { printf "%.0f", l / n }') per result), $line_texts texts"
per() { awk -v b="$1" -v n="$sample_results" 'BEGIN { printf "%.0f", b / n }'; }
echo "layout:   $(per "$tables_bytes") bytes per result with the lines in result_lines, $(per "$inline_bytes") with them inside each document (schema 4), on the first $SAMPLE runs ($sample_results results)"
echo "database: $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }'), $(awk -v b="$bytes" -v n="$results" 'BEGIN { printf "%.0f", b / n }') bytes per result)"
echo "order:    $([ "${OUT_OF_ORDER:-0}" = 1 ] && echo "measured out of commit order (blocks of 10 newest first)" || echo "measured in commit order"); every run with its commit's facts"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (load average at the end; CPU ms is user + system)"
echo
print_times "$GOAL_MS" "$STEPS_GOAL_MS" "${cmds[@]}"
echo
"$CGBENCH" steps --db "$db" --format json >"$TMP/steps.json"
labels() { grep -oE "\"label\": *\"$1\"" "$TMP/steps.json" | wc -l; }
echo "steps found over all benchmarks: $(labels code) code, $(labels environment) environment (generated: one lasting step per benchmark; more where a blip meets a step or falls on the newest commit)"
