#!/usr/bin/env bash
# postgres_scale.sh — the PostgreSQL history (--db postgresql://...) at scale, beside SQLite.
#
# 1. 1,000,000 results (BENCHES x COMMITS, 1,000 each): scale_history (bench/lib.sh, as
#    bench/history_scale.sh) generates the SQLite history (runs with their commits' facts,
#    kept functions), `cgbench import --from`
#    copies it into PostgreSQL (timed; then VACUUM ANALYZE, as autovacuum would), then, median of $RUNS (default 11), interleaved, on
#    both:  compare RUN RUN, history NAME (goal <= 50 ms each), steps (every benchmark,
#    <= 1 s); wall and CPU time of cgbench, and the CPU time of the server's backend for each
#    PostgreSQL command (neither depends on the machine's load, which wall time does).
# 2. WRITERS (32) x PER_WRITER (50) runs: WRITERS processes at once, each recording its runs
#    one `cgbench import` process per run of 20 results (what `cgbench run` does after the
#    measurement, without Valgrind's seconds per run), into one PostgreSQL project and into
#    one SQLite file: runs/s, failed processes (a lock must never fail one) and runs stored.
# The server is the test suite's (tests/support/pg_server.sh), in $TMP, on 127.0.0.1 at a
# free port, as `nobody` when run as root; tuned as the tests tune it (fsync off).
#
# Usage: bench/postgres_scale.sh
# Env:   BENCHES=N COMMITS=N (default 1000 each), RUNS=N (default 11), WRITERS=N (32),
#        PER_WRITER=N (50), SKIP_BUILD=1, SKIP_SCALE=1 (only part 2), SKIP_WRITERS=1 (only
#        part 1)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
RUNS="${RUNS:-11}"
bench_init
bench_build
BENCHES="${BENCHES:-1000}"
COMMITS="${COMMITS:-1000}"
WRITERS="${WRITERS:-32}"
PER_WRITER="${PER_WRITER:-50}"
command -v psql >/dev/null || { echo "bench: needs PostgreSQL (scripts/install-deps.sh --tests)" >&2; exit 1; }
chmod 755 "$TMP"  # the server's user reaches its directory
trap '"$ROOT/tests/support/pg_server.sh" stop "$TMP/pg"; rm -rf "$TMP"' EXIT
"$ROOT/tests/support/pg_server.sh" start "$TMP/pg"
[ -f "$TMP/pg/url" ] || { echo "bench: the server did not start: $(cat "$TMP/pg/skip")" >&2; exit 1; }
URL="$(cat "$TMP/pg/url")"
export PGCONNECT_TIMEOUT=10
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

bench_machine
echo "server:   PostgreSQL $(psql "$URL" -Atc 'SHOW server_version') on 127.0.0.1 (fsync off)"

if [ "${SKIP_SCALE:-0}" != 1 ]; then
    # 1. The SQLite history, then copied.
    repo="$TMP/scale"
    scale_history "$repo" "$BENCHES" "$COMMITS"
    db="$repo/.cgbench/history.db"
    pg="$URL?project=scale"
    t0="$(date +%s.%N)"
    (cd "$repo" && "$CGBENCH" import --from "sqlite:$db" --db "$pg")
    t1="$(date +%s.%N)"
    again="$(cd "$repo" && "$CGBENCH" import --from "sqlite:$db" --db "$pg")"
    # What autovacuum does on a live server soon after a bulk load: statistics and the
    # visibility map (so series come from the index alone).
    psql "$URL" -qc "VACUUM ANALYZE"
    results="$(psql "$URL" -Atc "SELECT COUNT(*) FROM cgbench.results")"
    bytes="$(psql "$URL" -Atc "SELECT pg_total_relation_size('cgbench.results') + pg_total_relation_size('cgbench.runs')")"
    read -r head_id base_id < <(psql "$URL" -AtF' ' -c \
        "SELECT (SELECT id FROM cgbench.runs ORDER BY seq DESC LIMIT 1), (SELECT id FROM cgbench.runs ORDER BY seq DESC LIMIT 1 OFFSET 1)")
    name="$(printf 'bench/%04d' $((BENCHES / 2)))"
    cd "$repo"
    export TIME_MAX_STATUS=1
    cmds=()
    for where in sqlite postgresql; do
        d="$db"
        [ "$where" = postgresql ] && d="$pg"
        cmds+=("compare RUN RUN ($where)|$CGBENCH compare --db $d $base_id $head_id"
               "history $name ($where)|$CGBENCH history --db $d $name"
               "steps ($where)|$CGBENCH steps --db $d")
    done
    # The same compare without the password handshake (SCRAM-SHA-256: 4,096 rounds of
    # hashing in libpq on every connection), as a certificate or peer login would be: a role
    # the server trusts from 127.0.0.1, acting as the history's owner.
    psql "$URL" -qc "CREATE ROLE cgbench_trusted LOGIN IN ROLE cgbench" \
        -c "ALTER ROLE cgbench_trusted SET role = 'cgbench'"
    sed -i '1i host all cgbench_trusted 127.0.0.1/32 trust' "$TMP/pg/data/pg_hba.conf"
    psql "$URL" -qAtc "SELECT pg_reload_conf()" >/dev/null
    trusted="postgresql://cgbench_trusted@${URL#*@}?project=scale"
    cmds+=("compare RUN RUN (postgresql, no password)|$CGBENCH compare --db $trusted $base_id $head_id")
    time_commands "${cmds[@]}"
    # The server's share, which the shared machine's load does not change: the CPU time of
    # the backend serving each PostgreSQL command (the postmaster's reaped children), median.
    pm="$(head -n1 "$TMP/pg/data/postmaster.pid")"
    server_cpu() { awk '{ print $16 + $17 }' "/proc/$pm/stat"; }
    server=()
    for c in "${cmds[@]}"; do
        case "$c" in *"(postgresql)|"*) ;; *) continue ;; esac
        : >"$TMP/server"
        for _ in $(seq 1 "$RUNS"); do
            a="$(server_cpu)"
            # shellcheck disable=SC2086  # the command is split into its words
            ${c#*|} >/dev/null 2>&1 || true
            sleep 0.3  # until the backend has exited and been reaped
            echo $(($(server_cpu) - a)) >>"$TMP/server"
        done
        server+=("$(printf '%-40s %8.0f' "${c%%|*}" "$(awk -v t="$(median "$TMP/server")" \
            -v k="$(getconf CLK_TCK)" 'BEGIN { print t * 1000 / k }')")")
    done
    cd "$ROOT"
    echo
    echo "history:  $results results ($BENCHES benchmarks x $COMMITS commits) in PostgreSQL, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }') (tables and indexes)"
    echo "import --from sqlite: $(elapsed "$t0" "$t1") s; again: $again"
    echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (load average at the end; CPU ms is user + system)"
    echo
    print_times 50 1000 "${cmds[@]}"
    echo
    printf '%-40s %8s\n' "command" "server CPU ms (PostgreSQL's backend, median)"
    printf '%s\n' "${server[@]}"
fi

# 2. Many writers at once.
[ "${SKIP_WRITERS:-0}" = 1 ] && exit 0
total=$((WRITERS * PER_WRITER))
"$CGBENCH" run -q --no-db --name template --out "$TMP/template.json" -- "$PROGRAMS/workload" 2000
result_files "$TMP/template.json" "$TMP/w" "$total" 20
writers() {  # DB: WRITERS processes at once, each importing its PER_WRITER files one by one
    local db="$1" w r failed=0
    local pids=()
    for w in $(seq 0 $((WRITERS - 1))); do
        (
            for r in $(seq 1 "$PER_WRITER"); do
                "$CGBENCH" import -q --db "$db" "$(printf '%s/%05d.json' "$TMP/w" $((w * PER_WRITER + r)))" ||
                    echo x >>"$TMP/failed"
            done
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
}
echo
printf '%-12s %8s %8s %8s %8s\n' "writers" "runs" "seconds" "runs/s" "failed"
for where in postgresql sqlite; do
    db="$URL?project=writers"
    [ "$where" = sqlite ] && db="$TMP/writers.db"
    rm -f "$TMP/failed"
    t0="$(date +%s.%N)"
    writers "$db"
    t1="$(date +%s.%N)"
    failed="$( [ -f "$TMP/failed" ] && wc -l <"$TMP/failed" || echo 0)"
    if [ "$where" = sqlite ]; then
        stored="$(sqlite3 "$db" 'SELECT COUNT(*) FROM runs')"
    else
        stored="$(psql "$URL" -Atc "SELECT COUNT(*) FROM cgbench.runs r JOIN cgbench.projects p ON p.id = r.project WHERE p.name = 'writers'")"
    fi
    s="$(elapsed "$t0" "$t1")"
    printf '%-12s %8s %8s %8s %8s   (%s: %s of %s runs stored)\n' "$WRITERS x $PER_WRITER" "$total" "$s" \
        "$(awk -v n="$total" -v s="$s" 'BEGIN { printf "%.0f", n / s }')" "$failed" "$where" "$stored" "$total"
done
