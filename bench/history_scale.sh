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
#    the template's functions (result_functions, the symbols shared), the costliest one
#    carrying the change. The template run is removed.
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
#    the CPU time of each command (user + system: what a loaded machine inflates least) and
#    how many steps `steps` found.
#
# Usage: bench/history_scale.sh
# Env:   BENCHES=N COMMITS=N (default 1000 each), RUNS=N (default 11), SKIP_BUILD=1,
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
# When each commit's run started: in commit order, or (OUT_OF_ORDER=1) each block of ten
# commits measured newest first.
SHUFFLE_EXPR="c.n"
if [ "${OUT_OF_ORDER:-0}" = 1 ]; then SHUFFLE_EXPR="((c.n / 10) * 10 + 9 - c.n % 10)"; fi
STEPS_GOAL_MS=1000
command -v sqlite3 >/dev/null || { echo "bench: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 1; }

repo="${KEEP:-$TMP/repo}"
db="$repo/.cgbench/history.db"
t0="$(date +%s.%N)"
if [ ! -e "$db" ]; then
    # 1. COMMITS commits on main, one minute apart.
    git init -q -b main "$repo"
    for i in $(seq 1 "$COMMITS"); do
        printf 'commit refs/heads/main\ncommitter b <b@example.com> %d +0000\ndata 3\nc%02d\n\n' \
            $((1767225600 + i * 60)) $((i % 100))
    done | git -C "$repo" fast-import --quiet
    git -C "$repo" rev-list --reverse main | awk '{ print NR "," $1 }' >"$TMP/commits.csv"

    # 2. The template: one real run, at HEAD.
    (cd "$repo" && "$CGBENCH" run -q --db "$db" --name template -- \
        "$PROGRAMS/workload" 2000)
    sqlite3 -bail "$db" >/dev/null <<SQL
CREATE TEMP TABLE commits (n INTEGER PRIMARY KEY, hash TEXT NOT NULL);
.import --csv $TMP/commits.csv commits
CREATE TEMP TABLE tpl AS
    SELECT r.fingerprint_key AS key, r.fingerprint AS fp, s.* FROM runs r
    JOIN results s ON s.run = r.seq WHERE s.name = 'template';
CREATE TEMP TABLE tplf AS
    SELECT f.rank, f.symbol, f.cost, f.ir FROM result_functions f
    JOIN tpl t ON t.run = f.run AND t.position = f.position;
DELETE FROM result_functions;
DELETE FROM results;
DELETE FROM runs;
BEGIN;
INSERT INTO runs (seq, id, started, recorded, git_commit, git_branch, git_dirty,
                  fingerprint_key, fingerprint, warnings, commit_time, author_time, parents,
                  subject, first_parent_depth, shallow)
SELECT c.n, strftime('%Y%m%dT%H%M%SZ', 1767225600 + c.n * 60, 'unixepoch') || printf('-%08x', c.n),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + $SHUFFLE_EXPR * 60, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1767225600 + c.n * 60, 'unixepoch'),
       c.hash, 'main', 0, t.key, t.fp, '[]',
       strftime('%Y-%m-%dT%H:%M:%S+00:00', 1767225600 + c.n * 60, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%S+00:00', 1767225600 + c.n * 60, 'unixepoch'),
       coalesce(p.hash, ''), printf('c%02d', c.n % 100), c.n, 0
FROM commits c CROSS JOIN tpl t LEFT JOIN commits p ON p.n = c.n - 1;
WITH RECURSIVE b(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM b WHERE j < $BENCHES - 1),
v AS (SELECT c.n AS run, b.j AS pos, printf('bench/%04d', b.j) AS name,
             b.j * 1000 + ((c.n * 7 + b.j * 13) % 20 = 0) * (b.j % 5 + 1) * 1500
                 + (c.n >= 100 + (b.j * 37) % 800) * (b.j % 9 + 1) * 40 AS delta
      FROM commits c, b)
INSERT INTO results (run, position, name, status, tool, cost, ir, i1mr, ilmr, dr, d1mr, dlmr,
                     dw, d1mw, dlmw, bc, bcm, bi, bim, l1_hits, ll_hits, ram_hits, data)
SELECT v.run, v.pos, v.name, 'ok', t.tool, t.cost + v.delta, t.ir + v.delta, t.i1mr, t.ilmr,
       t.dr, t.d1mr, t.dlmr, t.dw, t.d1mw, t.dlmw, t.bc, t.bcm, t.bi, t.bim,
       t.l1_hits + v.delta, t.ll_hits, t.ram_hits,
       json_set(t.data, '\$.name', v.name, '\$.events.Ir', t.ir + v.delta,
                '\$.derived.l1_hits', t.l1_hits + v.delta, '\$.cost', t.cost + v.delta)
FROM v, tpl t ORDER BY v.run, v.pos;
WITH RECURSIVE b(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM b WHERE j < $BENCHES - 1),
v AS (SELECT c.n AS run, b.j AS pos,
             b.j * 1000 + ((c.n * 7 + b.j * 13) % 20 = 0) * (b.j % 5 + 1) * 1500
                 + (c.n >= 100 + (b.j * 37) % 800) * (b.j % 9 + 1) * 40 AS delta
      FROM commits c, b)
INSERT INTO result_functions (run, position, rank, symbol, cost, ir)
SELECT v.run, v.pos, f.rank, f.symbol, f.cost + (f.rank = 0) * v.delta,
       f.ir + (f.rank = 0) * v.delta
FROM v, tplf f ORDER BY v.run, v.pos, f.rank;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
fi
t1="$(date +%s.%N)"

results="$(sqlite3 "$db" 'SELECT COUNT(*) FROM results')"
read -r functions symbols < <(sqlite3 -separator ' ' "$db" \
    "SELECT (SELECT COUNT(*) FROM result_functions), (SELECT COUNT(*) FROM symbols)")
read -r head_id base_id < <(sqlite3 -separator ' ' "$db" \
    "SELECT (SELECT id FROM runs ORDER BY seq DESC LIMIT 1), (SELECT id FROM runs ORDER BY seq DESC LIMIT 1 OFFSET 1)")
bytes="$(stat -c %s "$db")"

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
for c in "${cmds[@]}"; do time_cmd "$TMP/warmup" ${c#*|}; done
for _ in $(seq 1 "$RUNS"); do
    for i in "${!cmds[@]}"; do time_cmd "$TMP/t$i" ${cmds[$i]#*|}; done
done

bench_machine
echo "history:  $results results ($BENCHES benchmarks x $COMMITS commits), generated in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
echo "functions: $functions rows ($(awk -v f="$functions" -v n="$results" 'BEGIN { printf "%.0f", f / n }') per result), $symbols symbols"
echo "database: $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }'), $(awk -v b="$bytes" -v n="$results" 'BEGIN { printf "%.0f", b / n }') bytes per result)"
echo "order:    $([ "${OUT_OF_ORDER:-0}" = 1 ] && echo "measured out of commit order (blocks of 10 newest first)" || echo "measured in commit order"); every run with its commit's facts"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (load average at the end; CPU ms is user + system)"
echo
printf '%-34s %10s %8s  %s\n' "command" "median ms" "CPU ms" "goal"
for i in "${!cmds[@]}"; do
    ms="$(awk -v s="$(median "$TMP/t$i")" 'BEGIN { printf "%.1f", s * 1000 }')"
    cpu="$(awk -v s="$(median "$TMP/t$i.cpu")" 'BEGIN { printf "%.1f", s * 1000 }')"
    label="${cmds[$i]%%|*}"
    goal="$GOAL_MS"
    case "$label" in "steps"|"steps --format json") goal="$STEPS_GOAL_MS" ;; esac
    printf '%-34s %10s %8s  <= %s ms %s\n' "$label" "$ms" "$cpu" "$goal" "$(verdict "$ms" "$goal")"
done
echo
"$CGBENCH" steps --db "$db" --format json >"$TMP/steps.json"
labels() { grep -oE "\"label\": *\"$1\"" "$TMP/steps.json" | wc -l; }
echo "steps found over all benchmarks: $(labels code) code, $(labels environment) environment (generated: one lasting step per benchmark; more where a blip meets a step or falls on the newest commit)"
