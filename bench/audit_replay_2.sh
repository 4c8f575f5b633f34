# shellcheck shell=bash
# audit_replay_2.sh — the 86 cases of the second reliability audit
# (../shared/reports/reliability-audit-2.md: P01-P09, X01-X07, K01, S01-S11, B01-B07, G01-G05,
# R01-R11, Q01-Q05, H01-H02, N01-N06, D01-D04, J01-J08, W01-W03, C01-C04, M01-M02, E01),
# recorded as 2:ID. Sourced by audit_replay.sh (its helpers: cg, judge, check, variant,
# settle, record, wanted, needs_root, in_ns, build_c), never run on its own.
#
# Each case states what a fixed cgbench does and checks the outcome as the audit did. Cases of
# two users run as uid 65533 (the victim) and 65532 (the other user, the attacker) through
# setpriv; cases that replace /tmp run in a private mount namespace over a private tmpfs, with
# their programs in a directory of the build tree. At most 2 Valgrind processes run at a time,
# except where the case is many processes (P06-P08, X04, X06: bounded by the case itself).
# Env: D04_N (benchmarks per run in D04, default 100000), G02_JOBS (default 12), X06_N
# (default 2000); AUDIT_ROOT as for audit_replay.sh (AROOT: the scripts and CI files run or read).
# shellcheck disable=SC2016  # scripts for in_ns are single-quoted on purpose
# shellcheck disable=SC2153  # BUILD, W, CGBENCH ... come from audit_replay.sh

D04_N="${D04_N:-100000}"
G02_JOBS="${G02_JOBS:-12}"
X06_N="${X06_N:-2000}"
A2ROOT="$AROOT"
VICTIM=65533
OTHER=65532
as_user() {  # as_user UID CMD...: runs CMD as UID (its own group, no supplementary groups)
    local uid="$1"
    shift
    setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i PATH=/usr/bin:/bin HOME=/ "$@"
}
# Programs outside /tmp, so that cases which replace /tmp can run them; readable by others.
AUD="$(mktemp -d "$BUILD/audit2.XXXXXX")"
chmod 755 "$AUD"
trap 'rm -rf "$TMP" "$AUD"' EXIT
aud_c() {  # aud_c NAME SOURCE: a C program NAME in $AUD
    printf '%s\n' "$2" >"$AUD/$1.c"
    cc -O1 -o "$AUD/$1" "$AUD/$1.c" || { echo "audit: cannot build $1" >&2; exit 1; }
}
aud_c work '#include <stdlib.h>
int main(int c, char** v) { volatile unsigned long a = 0; long n = c > 1 ? atol(v[1]) : 1000;
for (long i = 0; i < n; ++i) a += (unsigned long)i * i; return 0; }'
aud_c slowwork '#include <stdlib.h>
#include <unistd.h>
int main(int c, char** v) { volatile unsigned long a = 0; long n = c > 1 ? atol(v[1]) : 1000;
for (long i = 0; i < n; ++i) a += (unsigned long)i * i; sleep(c > 2 ? atoi(v[2]) : 0); return 0; }'
aud_c forkmany '#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int c, char** v) { long n = c > 1 ? atol(v[1]) : 10;
for (long i = 0; i < n; ++i) { pid_t p = fork(); if (p == 0) _exit(0); if (p > 0) waitpid(p, 0, 0); }
return 0; }'
aud_c bomb '#include <unistd.h>
int main(void) { for (;;) fork(); }'
aud_c daemon '#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
int main(int c, char** v) { if (fork() == 0) { setsid(); if (fork() == 0) {
signal(SIGTERM, SIG_IGN); signal(SIGHUP, SIG_IGN); close(0); close(1); close(2);
sleep(c > 1 ? atoi(v[1]) : 300); } } return 0; }'
aud_c ignterm '#include <signal.h>
#include <unistd.h>
int main(void) { signal(SIGTERM, SIG_IGN); signal(SIGINT, SIG_IGN); signal(SIGHUP, SIG_IGN);
for (;;) pause(); }'
aud_c spawnbg2 '#include <unistd.h>
int main(int c, char** v) { if (c < 2) return 2; if (fork() == 0) { execv(v[1], v + 1); _exit(127); }
usleep(300000); return 0; }'
aud_c suidsleep '#include <stdlib.h>
#include <unistd.h>
int main(int c, char** v) { if (setuid(0) != 0) return 1; sleep(c > 1 ? atoi(v[1]) : 15); return 0; }'
any_wanted() {  # any_wanted ID...: true when any of the cases is wanted
    local id
    for id in "$@"; do wanted "$id" && return 0; done
    return 1
}
A2W="$W/a2"
mkdir -p "$A2W"
chmod 777 "$A2W"
cd "$A2W" || exit 1
# left MARKER: processes whose command line holds MARKER; kill_marked MARKER ends them, by
# pid. Markers hold this replay's pid (MK), so another replay's processes are never touched.
MK="cgbench-a2-$$"
left() { pgrep -f -- "$1" | grep -vc "^$$\$" || true; }
kill_pids() { local p; for p in "$@"; do [ "$p" != $$ ] && kill -KILL "$p" 2>/dev/null; done; true; }
# shellcheck disable=SC2046  # one pid a word
kill_marked() { kill_pids $(pgrep -f -- "$1"); }

# --- P: the keeper ------------------------------------------------------------------------
if wanted 2:P01; then
    cg run --no-db -- "$AUD/daemon" 300 "$MK-p01"
    sleep 1
    n="$(left "$MK-p01")"
    kill_marked "$MK-p01"
    if [ "$RC" != 0 ]; then record 2:P01 wrong "exit $RC: $(first)"
    elif [ "$n" != 0 ]; then record 2:P01 wrong "$n processes left"
    elif ! grep -q "outlived the program and were killed" <<<"$OUT$ERR"; then record 2:P01 weak "not reported"
    else record 2:P01 good; fi
fi
if wanted 2:P02; then
    cg run --no-db --timeout 2 -- "$AUD/ignterm" "$MK-p02"
    n="$(left "$MK-p02")"
    kill_marked "$MK-p02"
    if [ "$n" != 0 ]; then record 2:P02 wrong "$n processes left"; else judge 2:P02 3 "timed out after 2 s"; fi
fi
if wanted 2:P03 || wanted 2:P04; then
    if needs_root 2:P03 && needs_root 2:P04; then
        cp "$AUD/suidsleep" "$AUD/suid" && chown root:root "$AUD/suid" && chmod 4755 "$AUD/suid"
        if wanted 2:P03; then  # native warm-up: the keeper cannot kill a root helper
            t0=$(date +%s)
            (cd "$AUD" && as_user "$VICTIM" "$CGBENCH" run --no-db --timeout 5 -- "$AUD/spawnbg2" "$AUD/suid" 15 "$MK-p03" >/dev/null 2>"$A2W/.p03")
            t=$(($(date +%s) - t0))
            kill_marked "$MK-p03"
            if [ "$t" -le 10 ]; then record 2:P03 good "$t s"
            else record 2:P03 wrong "ran $t s with --timeout 5: the setuid helper held the run"; fi
        fi
        if wanted 2:P04; then  # under Valgrind the setuid exec fails: said, not measured silently
            (cd "$AUD" && as_user "$VICTIM" "$CGBENCH" run --no-db --warmup 0 --timeout 30 -- "$AUD/spawnbg2" "$AUD/suid" 1 "$MK-p04" >"$A2W/.p04" 2>&1)
            kill_marked "$MK-p04"
            if grep -qi "setuid" "$A2W/.p04"; then record 2:P04 good
            else record 2:P04 weak "a failed setuid exec measured silently"; fi
        fi
        rm -f "$AUD/suid"
    fi
fi
expect 2:P05 3 "no profile" -- run --no-db --timeout 60 -- /usr/bin/valgrind --tool=none "$AUD/work" 100
expect 2:P06 3 "started more than 50 processes" -- run --no-db --max-processes 50 -- "$AUD/forkmany" 1100
bomb() {  # bomb UID LIMIT ARGS...: cgbench ARGS as UID under ulimit -u LIMIT; RC, ERR, N left
    local uid="$1" limit="$2"
    shift 2
    (cd "$AUD" && setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \
        bash -c "ulimit -u $limit; exec \"\$@\"" bomb "$CGBENCH" "$@" >/dev/null 2>"$A2W/.bomb")
    RC=$?
    ERR="$(<"$A2W/.bomb")"
    sleep 1
    N="$(pgrep -u "$uid" | wc -l)"
    # shellcheck disable=SC2046  # one pid a word
    kill_pids $(pgrep -u "$uid")
}
if wanted 2:P07 && needs_root 2:P07; then
    bomb "$OTHER" 100 run --no-db --timeout 3 -- "$AUD/bomb"
    if [ "$N" != 0 ]; then record 2:P07 wrong "$N processes left"; else judge 2:P07 3 "timed out after 3 s"; fi
fi
if wanted 2:P08 && needs_root 2:P08; then
    bomb "$OTHER" 40 run --no-db --warmup 0 --timeout 5 -- "$AUD/bomb"
    if [ "$RC" != 3 ] || [ "$N" != 0 ]; then record 2:P08 wrong "exit $RC, $N left"
    elif [ "${#ERR}" -gt 2000 ] || ! grep -qE "[0-9]+ x " <<<"$ERR"; then record 2:P08 weak "every process listed (${#ERR} bytes)"
    else record 2:P08 good; fi
fi
if wanted 2:P09; then  # the keeper killed: nothing of the tree may survive it
    "$CGBENCH" run --no-db --warmup 0 -- /bin/sh -c "setsid sleep 61 0.$$ & sleep 62 0.$$" >/dev/null 2>"$A2W/.p09" &
    pid=$!
    sleep 4
    keeper="$(pgrep -P "$pid" | head -n 1)"
    [ -n "$keeper" ] && kill -KILL "$keeper"
    wait "$pid"
    rc=$?
    sleep 2
    n="$(left "sleep 6[12] 0.$$")"
    kill_marked "sleep 6[12] 0.$$"
    if [ -z "$keeper" ]; then record 2:P09 skip "no keeper process found"
    elif [ "$n" != 0 ]; then record 2:P09 wrong "exit $rc; $n processes of the tree outlived the killed keeper"
    else record 2:P09 good; fi
fi

# --- X: processes -------------------------------------------------------------------------
expect 2:X01 0 "" -- run -q --no-db -- /bin/sh -c 'yes | head -n 1 >/dev/null'
if wanted 2:X02; then  # an argument line "events: ..." of an exec'd program / a forked child
    for script in 'exec "$0" "$1"' '"$0" "$1"; true'; do
        cg run -q --no-db --weights ir -- /bin/sh -c "$script" "$AUD/work" $'1000\nevents: Ir'
        if [ "$RC" = 0 ]; then variant good ""
        elif [ "$RC" = 4 ] && grep -q "unreadable profile" <<<"$ERR"; then variant weak "sh -c '$script': $(first)"
        else variant wrong "sh -c '$script': exit $RC: $(first)"; fi
    done
    settle 2:X02
fi
if wanted 2:X03; then  # forked children repeat their parent's counts: said
    cg run --no-db --weights ir -- "$AUD/forkmany" 10
    if [ "$RC" != 0 ]; then record 2:X03 wrong "exit $RC"
    elif grep -q "forked process(es) that did not exec" <<<"$OUT$ERR"; then record 2:X03 good
    else record 2:X03 weak "the parent's work counted again per child, silently"; fi
fi
if wanted 2:X04; then
    rm -f fk300.json
    cg run --no-db --weights ir --out fk300.json -- "$AUD/forkmany" 300
    if [ "$RC" = 0 ] && [ "$(stat -c %s fk300.json)" -lt 1000000 ]; then record 2:X04 good
    else record 2:X04 wrong "exit $RC: $(first)"; fi
fi
if wanted 2:X05; then  # 15 arguments of 130,000 bytes: a short default name
    big="$(head -c 130000 /dev/zero | tr '\0' a)"
    args=()
    for _ in $(seq 1 15); do args+=("$big"); done
    rm -f x05.db
    cg run --db x05.db --weights ir -- "$AUD/work" 10 "${args[@]}"
    len="$(sqlite3 x05.db 'SELECT MAX(LENGTH(name)) FROM results' 2>/dev/null)"
    if [ "$RC" != 0 ]; then record 2:X05 wrong "exit $RC: $(first)"
    elif [ "${len:-0}" -gt 200 ] || [ "$((${#OUT} + ${#ERR}))" -gt 100000 ]; then
        record 2:X05 weak "a name of $len bytes, $((${#OUT} + ${#ERR})) bytes printed"
    else record 2:X05 good; fi
    unset big args
fi
expect 2:X06 3 "started more than 1000 processes" -- run --no-db --weights ir -- "$AUD/forkmany" "$X06_N"
if wanted 2:X07 && needs_root 2:X07; then
    res="$(in_ns /tmp 2m "yes >/tmp/filler 2>/dev/null; cd '$AUD' && \$CG run --no-db -- '$AUD/work' 2000 2>&1; echo \"rc=\$?\"")"
    if grep -q "rc=4" <<<"$res" && grep -q "/tmp is full" <<<"$res"; then record 2:X07 good
    else record 2:X07 weak "$(head -c 160 <<<"$res" | tr '\n' ' ')"; fi
fi

# --- K: keep-raw --------------------------------------------------------------------------
if wanted 2:K01; then
    printf '[[bench]]\nname = "a"\ncommand = ["/bin/sh", "-c", "%s 1000; %s 2000"]\n\n[[bench]]\nname = "a.process-2"\ncommand = ["%s", "5000"]\n' \
        "$AUD/work" "$AUD/work" "$AUD/work" >k01.toml
    rm -rf k01raw
    cg run --no-db -j1 --weights ir --keep-raw k01raw --suite k01.toml
    if [ "$RC" = 2 ] && grep -q "would share --keep-raw file names" <<<"$ERR"; then record 2:K01 good
    elif [ "$RC" = 0 ]; then record 2:K01 wrong "a.process-2.* of 'a' overwritten by the other benchmark's"
    else record 2:K01 wrong "exit $RC: $(first)"; fi
fi

# --- S: the staging path ------------------------------------------------------------------
# s_run USER ARGS...: cgbench ARGS as USER (root: 0) in a private /tmp namespace script.
S_WORK="$AUD/work"
# In a private /tmp: an Ir of `work 2000`, run by root (what S02, S06, S11 compare with).
if wanted 2:S01 && needs_root 2:S01; then
    res="$(in_ns /tmp 64m "cd '$AUD' && \$CG run -q --no-db --weights ir --format json -- '$S_WORK' 2000 | jq '.benchmarks[0].events.Ir'; [ ! -e /tmp/cgbench ] || stat -c '%U %a' /tmp/cgbench")"
    S01_IR="$(head -n 1 <<<"$res")"
    owner="$(sed -n 2p <<<"$res")"
    if ! [[ "$S01_IR" =~ ^[0-9]+$ ]]; then record 2:S01 wrong "$res"
    elif [ -n "$owner" ] && [ "$owner" != "root 1777" ]; then record 2:S01 wrong "/tmp/cgbench is $owner"
    else record 2:S01 good; fi
fi
S01_IR="${S01_IR:-}"
# s_case ID SETUP VICTIM-UID: in a private /tmp, SETUP runs (as root; `as_other CMD` runs as
# the other user), then the victim measures `work 2000`; prints "rc IR" and stderr's length.
s_case() {
    local setup="$2" victim="$3"
    in_ns /tmp 64m "
        as_other() { setpriv --reuid=$OTHER --regid=$OTHER --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \"\$@\"; }
        mkdir -m 1777 -p /tmp/a2 && cd '$AUD' && { $setup; } >/dev/null 2>&1
        setpriv --reuid=$victim --regid=$victim --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \
            \$CG run --no-db --weights ir --format json -- '$S_WORK' 2000 >/tmp/a2/out.json 2>/tmp/a2/err
        echo \"\$? \$(jq '.benchmarks[0].events.Ir' /tmp/a2/out.json 2>/dev/null) \$(wc -c </tmp/a2/err)\"
        head -c 300 /tmp/a2/err | tr '\n' ' '
        [ ! -e /tmp/PWNED_BY_M ] || echo PWNED"
}
# The staging hash of work's directory, as another user's own `-v` run prints it (empty when
# the staging path is private and so never shown).
s_hash() {
    in_ns /tmp 64m "cd '$AUD' && setpriv --reuid=$OTHER --regid=$OTHER --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \
        \$CG -v run --no-db --weights ir -- '$S_WORK' 10 2>&1 | grep -oE '/tmp/cgbench/[0-9a-f]{16}_*' | head -n 1" 2>/dev/null
}
if { wanted 2:S02 || wanted 2:S03 || wanted 2:S06 || wanted 2:S07 || wanted 2:S11; } && [ "$ROOT_OK" = 1 ]; then
    S_LINK="$(s_hash)"
fi
if wanted 2:S02 && needs_root 2:S02; then
    res="$(s_case 2:S02 'as_other mkdir -m 1777 /tmp/cgbench' 0)"
    read -r rc ir _ <<<"$(head -n 1 <<<"$res")"
    if [ "$rc" != 0 ]; then record 2:S02 wrong "exit $rc: $(sed -n 2p <<<"$res")"
    elif [ -n "$S01_IR" ] && [ "$ir" != "$S01_IR" ]; then record 2:S02 weak "Ir $ir instead of $S01_IR: another user's directory changed the counts"
    else record 2:S02 good; fi
fi
if wanted 2:S03 && needs_root 2:S03; then
    res="$(s_case 2:S03 'as_other mkdir -m 1777 /tmp/cgbench; as_other mkdir -m 700 /tmp/cgbench-0' 0)"
    read -r rc _ <<<"$(head -n 1 <<<"$res")"
    if [ "$rc" = 0 ]; then record 2:S03 good; else record 2:S03 security "another user's directories stop root's runs: $(sed -n 2p <<<"$res")"; fi
fi
# s_lock ID VICTIM SIGNAL-AT TIMEOUT-ARGS: the other user holds <H>.lock for 20 s; the victim's
# run gets SIGINT at SIGNAL-AT s (0: none). Prints "rc seconds".
s_lock() {
    in_ns /tmp 64m "
        mkdir -m 1777 /tmp/cgbench && cd '$AUD'
        setpriv --reuid=$OTHER --regid=$OTHER --clear-groups flock -x '$S_LINK.lock' sleep 20 &
        holder=\$!
        sleep 0.5
        t0=\$(date +%s.%N)
        setpriv --reuid=$2 --regid=$2 --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \
            \$CG run --no-db --weights ir $4 -- '$S_WORK' 2000 >/dev/null 2>&1 &
        pid=\$!
        [ '$3' != 0 ] && { sleep $3; kill -INT \$pid; }
        wait \$pid; rc=\$?
        echo \"\$rc \$(awk -v a=\$t0 -v b=\$(date +%s.%N) 'BEGIN { printf \"%d\", b - a }')\"
        kill \$holder 2>/dev/null; true"
}
if wanted 2:S04 && needs_root 2:S04; then
    if [ -z "${S_LINK:-}" ]; then S_LINK="$(s_hash)"; fi
    if [ -z "$S_LINK" ]; then record 2:S04 good "no shared staging path to lock"
    else
        read -r rc t <<<"$(s_lock 2:S04 "$VICTIM" 3 "")"
        # Not held: done (0) or stopped by the Ctrl-C (130) within a few seconds.
        if [ "$t" -le 6 ] && { [ "$rc" = 0 ] || [ "$rc" = 130 ]; }; then record 2:S04 good "exit $rc after $t s"
        else record 2:S04 security "exit $rc after $t s: the other user's lock held the run past Ctrl-C"; fi
    fi
fi
if wanted 2:S05 && needs_root 2:S05; then
    if [ -z "${S_LINK:-}" ]; then S_LINK="$(s_hash)"; fi
    if [ -z "$S_LINK" ]; then record 2:S05 good "no shared staging path to lock"
    else
        read -r rc t <<<"$(s_lock 2:S05 0 0 "--timeout 2")"
        if [ "$t" -le 6 ]; then record 2:S05 good; else record 2:S05 wrong "exit $rc after $t s with --timeout 2"; fi
    fi
fi
if wanted 2:S06 && needs_root 2:S06; then
    if [ -z "${S_LINK:-}" ]; then record 2:S06 good "no shared staging path to plant a link at"
    else
        trojan="$AUD/troj/$(basename "$AUD")"
        mkdir -p "$trojan" && printf '#!/bin/sh\ntouch /tmp/PWNED_BY_M\n' >"$trojan/work" && chmod 755 "$trojan/work"
        res="$(s_case 2:S06 "mkdir -m 1777 /tmp/cgbench; as_other ln -s '$AUD/troj' '$S_LINK'" "$VICTIM")"
        read -r rc ir errlen <<<"$(head -n 1 <<<"$res")"
        if grep -q PWNED <<<"$res"; then record 2:S06 security "the planted program ran"
        elif [ "$rc" != 0 ]; then record 2:S06 wrong "exit $rc"
        elif [ -n "$S01_IR" ] && [ "$ir" != "$S01_IR" ] && [ "${errlen:-0}" = 0 ]; then record 2:S06 wrong "Ir $ir instead of $S01_IR, silently"
        else record 2:S06 good; fi
    fi
fi
if wanted 2:S07 && needs_root 2:S07; then
    if [ -z "${S_LINK:-}" ]; then record 2:S07 good "no shared staging path to plant a lock at"
    else
        res="$(s_case 2:S07 "mkdir -m 1777 /tmp/cgbench; as_other sh -c 'umask 077; : >$S_LINK.lock'; as_other mkdir -m 700 /tmp/cgbench-$VICTIM" "$VICTIM")"
        read -r rc _ <<<"$(head -n 1 <<<"$res")"
        if [ "$rc" = 0 ]; then record 2:S07 good; else record 2:S07 security "exit $rc: $(sed -n 2p <<<"$res")"; fi
    fi
fi
if wanted 2:S08 && needs_root 2:S08; then
    res="$(in_ns /tmp 64m "mount -o remount,noexec /tmp && cd '$AUD' && \$CG run -q --no-db --weights ir -- '$S_WORK' 2000 2>&1; echo \"rc=\$?\"")"
    if grep -q "rc=0" <<<"$res"; then record 2:S08 good; else record 2:S08 wrong "$(head -c 160 <<<"$res" | tr '\n' ' ')"; fi
fi
if wanted 2:S09 && needs_root 2:S09; then
    mkdir -p "$AUD/tmpd" && chmod 777 "$AUD/tmpd"
    res="$(in_ns /tmp 64m "mount -o remount,ro /tmp && cd '$AUD' && TMPDIR='$AUD/tmpd' \$CG run -q --no-db --weights ir -- '$S_WORK' 2000 2>&1; echo \"rc=\$?\"")"
    if grep -q "rc=0" <<<"$res" || grep -qi "read-only" <<<"$res"; then record 2:S09 good
    else record 2:S09 weak "$(head -c 160 <<<"$res" | tr '\n' ' ')"; fi
fi
if wanted 2:S10 && needs_root 2:S10; then
    res="$(in_ns /tmp 256m "mkdir -m 1777 /tmp/cgbench && (cd /tmp/cgbench && seq 1 200000 | xargs touch) && cd '$AUD' && t0=\$(date +%s%N) && \$CG run -q --no-db --weights ir -- '$S_WORK' 2000; echo \"rc=\$? ms=\$(( (\$(date +%s%N) - t0) / 1000000 ))\"")"
    ms="$(grep -o 'ms=[0-9]*' <<<"$res" | cut -d= -f2)"
    if grep -q "rc=0" <<<"$res" && [ "${ms:-99999}" -lt 10000 ]; then record 2:S10 good "$ms ms"
    else record 2:S10 weak "$res"; fi
fi
if wanted 2:S11 && needs_root 2:S11; then  # another user runs the same program meanwhile
    res="$(in_ns /tmp 64m "
        mkdir -m 1777 /tmp/cgbench && cd '$AUD'
        setpriv --reuid=$VICTIM --regid=$VICTIM --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \$CG run -q --no-db --weights ir -- '$AUD/slowwork' 2000 3 >/dev/null 2>&1 &
        sleep 1.5
        setpriv --reuid=$OTHER --regid=$OTHER --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \$CG run --no-db --weights ir --format json -- '$AUD/slowwork' 2000 0 2>/tmp/err | jq '.benchmarks[0].events.Ir'
        wait
        setpriv --reuid=$OTHER --regid=$OTHER --clear-groups env -i PATH=/usr/bin:/bin HOME=/ \$CG run -q --no-db --weights ir --format json -- '$AUD/slowwork' 2000 0 | jq '.benchmarks[0].events.Ir'
        wc -c </tmp/err")"
    read -r during alone errlen <<<"$(tr '\n' ' ' <<<"$res")"
    if [ "$during" = "$alone" ] || [ "${errlen:-0}" != 0 ]; then record 2:S11 good
    else record 2:S11 wrong "Ir $during while another user ran it, $alone alone, silently"; fi
fi

# --- B: bisect ------------------------------------------------------------------------------
# A repository of 8 commits (v1..v8): prog.c's work steps up at v5; ver.txt holds the version.
b_repo() {  # b_repo DIR
    rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
    git init -q -b main
    for v in 1 2 3 4 5 6 7 8; do
        n=100000
        [ "$v" -ge 5 ] && n=110000
        printf '#include <stdlib.h>\nint main(void) { volatile unsigned long a = 0; for (long i = 0; i < %d; ++i) a += (unsigned long)i * i; return 0; }\n' "$n" >prog.c
        echo "$v" >ver.txt
        git add prog.c ver.txt && git -c user.name=a -c user.email=a@b commit -q -m "commit $v"
        git tag "c$v"
    done
    cd "$A2W" || exit 1
}
B_BUILD='v=$(cat ver.txt); case $v in 3|6) echo "syntax error here"; exit 1;; esac; cc -O2 -o prog prog.c'
b_worktrees() { git -C "$1" worktree list --porcelain | grep -c '^worktree '; }
if any_wanted 2:B01 2:B02 2:B03 2:B04 2:B05 2:B06 2:B07 2:Q01; then b_repo "$A2W/brepo"; fi
if wanted 2:B01; then
    echo dirty >>"$A2W/brepo/ver.txt"
    cd "$A2W/brepo" || exit 1
    cg bisect c1 c8 --build "$B_BUILD" --weights ir --no-db -- ./prog
    cd "$A2W" || exit 1
    dirty="$(git -C "$A2W/brepo" status --porcelain)"
    git -C "$A2W/brepo" checkout -q ver.txt
    if [ "$RC" = 0 ] && grep -q "$(git -C "$A2W/brepo" rev-parse --short=7 c5)" <<<"$OUT" && [ "$dirty" = " M ver.txt" ] &&
        [ "$(b_worktrees "$A2W/brepo")" = 1 ]; then record 2:B01 good
    else record 2:B01 wrong "exit $RC: $(first)"; fi
fi
b_hang='case $(cat ver.txt) in 8) sh -c "sleep 300" '"$MK-bhang"';; esac; cc -O2 -o prog prog.c'
if wanted 2:B02; then  # a hanging build is bounded
    t0=$(date +%s)
    cd "$A2W/brepo" || exit 1
    cg bisect c1 c8 --build "$b_hang" --build-timeout 5 --weights ir --no-db -- ./prog
    cd "$A2W" || exit 1
    t=$(($(date +%s) - t0))
    n="$(left "$MK-bhang")"
    kill_marked "$MK-bhang"
    if [ "$t" -le 30 ] && [ "$n" = 0 ] && grep -q "timed out" <<<"$ERR"; then record 2:B02 good "$t s"
    else record 2:B02 wrong "exit $RC after $t s: the build is not bounded: $(first)"; fi
fi
# b_signal ID SIGNAL WANT BUILD PROG: bisect; SIGNAL once MARKER's process runs
b_signal() {
    local id="$1" sig="$2" want="$3" build="$4" marker="$5" pid rc n
    shift 5
    (cd "$A2W/brepo" && exec "$CGBENCH" bisect c1 c8 --build "$build" --weights ir --no-db -- "$@" >/dev/null 2>"$A2W/.b") &
    pid=$!
    for _ in $(seq 1 600); do [ "$(left "$marker")" != 0 ] && break; sleep 0.1; done
    sleep 0.5
    kill "-$sig" "$pid"
    wait "$pid"
    rc=$?
    sleep 1
    n="$(left "$marker")"
    kill_marked "$marker"
    if [ "$rc" = 134 ] || grep -q "terminate called" "$A2W/.b"; then record "$id" crash "exit $rc: $(head -c 120 "$A2W/.b" | tr '\n' ' ')"
    elif [ "$rc" != "$want" ]; then record "$id" wrong "exit $rc, want $want"
    elif [ "$(b_worktrees "$A2W/brepo")" != 1 ] || [ "$n" != 0 ]; then record "$id" wrong "worktree or build left"
    else record "$id" good; fi
    git -C "$A2W/brepo" worktree prune
}
if wanted 2:B03; then b_signal 2:B03 INT 130 "$b_hang" "$MK-bhang" ./prog; fi
if wanted 2:B04; then  # SIGTERM while a benchmark's warm-up runs (its program sleeps)
    b_signal 2:B04 TERM 143 "cc -O2 -o prog prog.c" "$MK-bsleep" /bin/sh -c 'sleep 30' "$MK-bsleep"
fi
if wanted 2:B05; then
    cd "$A2W/brepo" || exit 1
    cg bisect c1 c8 --build 'case $(cat ver.txt) in 8) rm -rf "$(git rev-parse --show-toplevel)";; *) cc -O2 -o prog prog.c;; esac' --weights ir --no-db -- ./prog
    cd "$A2W" || exit 1
    judge 2:B05 3 "cannot be measured"
fi
if wanted 2:B06; then  # a build that moves HEAD at BAD: the probe is refused, not misreported
    rm -f b6.db
    cd "$A2W/brepo" || exit 1
    cg bisect c1 c8 --build 'case $(cat ver.txt) in 8) git checkout -q HEAD~4;; esac; cc -O2 -o prog prog.c' --weights ir --db "$A2W/b6.db" -- ./prog
    cd "$A2W" || exit 1
    if [ "$RC" = 3 ] && grep -q "moved the worktree" <<<"$ERR"; then record 2:B06 good
    elif [ "$RC" = 0 ]; then record 2:B06 weak "the moved commit reported as BAD: $(head -c 100 <<<"$OUT" | tr '\n' ' ')"
    else record 2:B06 wrong "exit $RC: $(first)"; fi
fi
if wanted 2:B07; then
    cd "$A2W/brepo" || exit 1
    check 2 "is not an ancestor" bisect c8 c1 --build true --no-db -- ./prog
    check 2 "the same commit" bisect HEAD HEAD --build true --no-db -- ./prog
    check 2 "" bisect --upload-pack=x c8 --build true --no-db -- ./prog
    cd "$A2W" || exit 1
    settle 2:B07
fi

# --- G: the history branch (scripts/cgbench-history.sh) -------------------------------------
HIST="$A2ROOT/scripts/cgbench-history.sh"
g_setup() {  # g_setup DIR CLONES: a bare origin with main and CLONES clones c0...
    rm -rf "$1" && mkdir -p "$1/seed"
    git init -q --bare -b main "$1/origin.git"
    (cd "$1/seed" && git init -q -b main && echo x >README && git add README &&
        git -c user.name=a -c user.email=a@b commit -q -m one && git push -q "$1/origin.git" main)
    for i in $(seq 0 $(($2 - 1))); do
        git clone -q "$1/origin.git" "$1/c$i"
        git -C "$1/c$i" config user.name a && git -C "$1/c$i" config user.email a@b
    done
}
g_file() {  # g_file ID OUT: r1.json as run ID
    jq --arg id "$1" '.run.id = $id' "$W/r1.json" >"$2"
}
g_plant() {  # g_plant DIR NAME CONTENT|->TARGET: commits runs/NAME to the branch
    (cd "$1/c1" && git fetch -q origin cgbench-data && git checkout -q -B cgbench-data FETCH_HEAD &&
        if [[ "$3" == "->"* ]]; then ln -s "${3#->}" "runs/$2"; else printf '%s' "$3" >"runs/$2"; fi &&
        git add "runs/$2" && git commit -q -m planted && git push -q origin cgbench-data)
}
if any_wanted 2:G01 2:G03 2:G04 2:G05; then
    G="$A2W/g"
    g_setup "$G" 2
    g_file g-one "$A2W/g-one.json"
    g_file g-two "$A2W/g-two.json"
fi
if wanted 2:G01; then
    (cd "$G/c0" && CGBENCH="$CGBENCH" "$HIST" push cgbench-data "$A2W/g-one.json") 2>/dev/null; rc1=$?
    (cd "$G/c0" && CGBENCH="$CGBENCH" "$HIST" pull cgbench-data "$A2W/g01.db") 2>/dev/null; rc2=$?
    if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$(count_runs "$A2W/g01.db")" = 1 ]; then record 2:G01 good
    else record 2:G01 wrong "push $rc1, pull $rc2"; fi
fi
if wanted 2:G02; then  # G02_JOBS clones push one file each at the same moment
    G2="$A2W/g2"
    g_setup "$G2" "$G02_JOBS"
    for i in $(seq 0 $((G02_JOBS - 1))); do
        g_file "g2-$i" "$G2/r$i.json"
        (cd "$G2/c$i" && CGBENCH="$CGBENCH" "$HIST" push cgbench-data "$G2/r$i.json" >/dev/null 2>&1 || echo fail >>"$G2/failed") &
    done
    wait
    landed="$(git -C "$G2/origin.git" ls-tree -r --name-only cgbench-data 2>/dev/null | wc -l)"
    if [ "$landed" = "$G02_JOBS" ]; then record 2:G02 good
    else record 2:G02 weak "$landed of $G02_JOBS runs added"; fi
fi
if wanted 2:G03; then  # a file the reader cannot take: skipped, the rest imported
    jq '.run.id = "zz-wallinf"' "$W/r1.json" | sed 's/"wall_seconds": [0-9.e-]*/"wall_seconds": 1e999/' >"$A2W/wallinf.json"
    (cd "$G/c0" && CGBENCH="$CGBENCH" "$HIST" push cgbench-data "$A2W/g-two.json") 2>/dev/null
    g_plant "$G" zz-wallinf.json "$(cat "$A2W/wallinf.json")"
    rm -f "$A2W/g03.db"
    (cd "$G/c0" && CGBENCH="$CGBENCH" "$HIST" pull cgbench-data "$A2W/g03.db") 2>"$A2W/.g03"
    rc=$?
    if [ "$rc" = 0 ] && [ "$(count_runs "$A2W/g03.db")" -ge 1 ]; then record 2:G03 good
    else record 2:G03 wrong "pull exit $rc, $(count_runs "$A2W/g03.db") runs: one bad file fails every later pull"; fi
fi
if wanted 2:G04; then  # a symbolic link on the branch
    g_plant "$G" zz-shadow.json "->/etc/shadow"
    rm -f "$A2W/g04.db"
    (cd "$G/c0" && CGBENCH="$CGBENCH" "$HIST" pull cgbench-data "$A2W/g04.db") 2>"$A2W/.g04"
    rc=$?
    if grep -q "last read" "$A2W/.g04"; then record 2:G04 weak "the link was followed: $(grep -o "last read[^)]*" "$A2W/.g04" | head -n 1)"
    elif [ "$rc" = 0 ]; then record 2:G04 good
    else record 2:G04 weak "pull exit $rc"; fi
fi
if wanted 2:G05; then  # links at every name the push's temporary file could take
    mkdir -p "$A2W/g05tmp"
    echo precious >"$A2W/victim.txt"
    g_file g-five "$A2W/g-five.json"
    # One process plants them all, so the next 3000 pids (wrapping at pid_max to 300, as Linux
    # does) are still to come, the push's among them.
    perl -e 'sub num { open(my $f, "<", $_[0]) or die "$_[0]: $!"; my $n = <$f>; chomp $n; return $n }
        my ($last, $max) = (num("/proc/sys/kernel/ns_last_pid"), num("/proc/sys/kernel/pid_max"));
        for my $i (1 .. 3000) { my $p = $last + $i; $p = $p - $max + 300 if $p >= $max;
            symlink($ARGV[0], "$ARGV[1]/cgbench-push.$p") }' "$A2W/victim.txt" "$A2W/g05tmp"
    (cd "$G/c0" && env -u RUNNER_TEMP TMPDIR="$A2W/g05tmp" CGBENCH="$CGBENCH" "$HIST" push cgbench-data "$A2W/g-five.json") >/dev/null 2>&1
    if [ "$(cat "$A2W/victim.txt")" = precious ]; then record 2:G05 good
    else record 2:G05 security "the file behind a planted link was truncated"; fi
fi

# --- R, Q: import and run references --------------------------------------------------------
r_file() {  # r_file OUT JQ-FILTER: r1.json changed by the filter
    jq "$2" "$W/r1.json" >"$1"
}
r_import() {  # r_import DB FILE...: import, RC and ERR; runs in DB
    local db="$1"
    shift
    rm -f "$db"
    cg import --db "$db" "$@"
}
r_count() {  # r_count OUT ID VALUE: r1.json as run ID, one Ir-only result of Ir = cost = VALUE
    # (jq computes in doubles: the exact value goes in by text)
    jq --arg id "$2" '.run.id = $id | .benchmarks[0].events = {"Ir": 987654321987}
        | .benchmarks[0].weights = {"l1": 1, "ll": 0, "ram": 0, "preset": "ir", "instructions_only": true}
        | .benchmarks[0].cost = 987654321987 | .benchmarks[0].derived = null
        | del(.benchmarks[0].functions)' "$W/r1.json" | sed "s/987654321987/$3/g" >"$1"
}
if wanted 2:R01; then
    r_count big.json big 18446744073709551615
    r_import r01.db big.json
    nulls="$(sqlite3 r01.db 'SELECT COUNT(*) FROM results WHERE cost IS NULL' 2>/dev/null)"
    if [ "$RC" = 2 ] && grep -q "2^63" <<<"$ERR"; then record 2:R01 good
    elif [ "$RC" = 0 ] && [ "${nulls:-0}" != 0 ]; then record 2:R01 weak "stored as NULL"
    else record 2:R01 wrong "exit $RC: $(first)"; fi
fi
if wanted 2:R02; then
    r_count big.json big 18446744073709551615
    r_count liar1.json one 1
    cg compare --no-db big.json liar1.json
    if grep -q -- "-18,446,744,073,709,551,614" <<<"$OUT$ERR"; then record 2:R02 good
    elif grep -q "(+2)" <<<"$OUT$ERR"; then record 2:R02 wrong "the change printed as (+2)"
    else record 2:R02 weak "exit $RC: $(first)"; fi
fi
r_refused() {  # r_refused ID VERDICT-IF-TAKEN FILTER...: each variant of r1.json must be refused on import
    local id="$1" taken="$2" f i=0
    shift 2
    for f in "$@"; do
        r_file "r-$i.json" "$f"
        r_import r.db "r-$i.json"
        if [ "$RC" = 2 ] && [ "$(count_runs r.db)" = 0 ]; then variant good ""
        else variant "$taken" "[$f] exit $RC: $(first)"; fi
        i=$((i + 1))
    done
    settle "$id"
}
wanted 2:R03 && r_refused 2:R03 weak '.run.id = "liar" | .benchmarks[0].cost = 1'
if wanted 2:R04; then
    jq '.run.id = "dup"' "$W/r1.json" | sed '0,/"Ir": /s//"Ir": 999999999, "Ir": /' >dupkey.json
    r_import r.db dupkey.json
    if [ "$RC" = 2 ] && [ "$(count_runs r.db)" = 0 ]; then record 2:R04 good; else record 2:R04 weak "exit $RC: the last value won"; fi
fi
wanted 2:R05 && r_refused 2:R05 weak '.run.id = "../../../../tmp/x"' '.run.id = "a\nb\u001b[31mred"' '.run.id = ("L" * 1000000)'
wanted 2:R06 && r_refused 2:R06 wrong '.run.id = "d1" | .run.started = "not a date"' '.run.id = "d2" | .run.started = "-0001-01-01T00:00:00Z"' \
    '.run.id = "d3" | .run.started = "9999-12-31T23:59:59Z"' '.run.id = "d4" | .run.started = "1900-01-01T00:00:00Z"'
wanted 2:R07 && r_refused 2:R07 weak '.run.id = "nul" | .benchmarks[0].name = "a\u0000b/../../c\u202eevil"'
if wanted 2:R08; then
    rm -rf r08 && mkdir r08
    r_file r08/a.json '.run.id = "r08a"'
    r_file r08/c.json '.run.id = "r08c"'
    jq '.run.id = "r08b"' "$W/r1.json" | sed 's/"wall_seconds": [0-9.e-]*/"wall_seconds": 1e999/' >r08/b.json
    r_import r08.db r08
    if [ "$RC" = 2 ] && [ "$(count_runs r08.db)" = 2 ] && grep -q "b.json" <<<"$ERR"; then record 2:R08 good
    else record 2:R08 wrong "exit $RC, $(count_runs r08.db) runs imported: $(first)"; fi
fi
if wanted 2:R09; then
    jq -c '.run.id = "deep"' "$W/r1.json" | awk '{ d = ""; for (i = 0; i < 200000; i++) d = d "["
        e = ""; for (i = 0; i < 200000; i++) e = e "]"; sub(/"run":\{/, "\"run\":{\"x\":" d e ","); print }' >deep.json
    r_import r09.db deep.json
    if [ "$RC" -ge 128 ]; then record 2:R09 crash "killed by signal $((RC - 128))"
    elif [ "$RC" = 0 ] || [ "$RC" = 2 ]; then record 2:R09 good
    else record 2:R09 wrong "exit $RC"; fi
fi
if wanted 2:R10; then
    rm -rf r10 && mkdir -p r10/sub && ln -s .. r10/sub/loop && mkfifo r10/fifo.json
    r_file r10/good.json '.run.id = "r10"'
    ln -s /etc/shadow r10/shadow.json && ln -s /proc/self/environ r10/env.json
    r_import r10.db r10
    if grep -q "last read" <<<"$ERR"; then record 2:R10 weak "a link out of the directory was read"
    elif [ "$(count_runs r10.db)" = 1 ] && { [ "$RC" = 0 ] || [ "$RC" = 2 ]; }; then record 2:R10 good
    else record 2:R10 wrong "exit $RC"; fi
fi
if wanted 2:R11; then
    r_file r11.json '.run.id = "r11" | .schema = "cgbench-result/2"'
    r_import r11.db r11.json
    judge 2:R11 2 "schema is \"cgbench-result/2\""
fi
if wanted 2:Q01; then  # an imported run whose id is also a tag
    rm -f "$A2W/q01.db"
    (cd "$A2W/brepo" && git checkout -q c1 && cc -O2 -o prog prog.c &&
        "$CGBENCH" run -q --db "$A2W/q01.db" --weights ir --name p -- ./prog &&
        git checkout -q c5 && cc -O2 -o prog prog.c &&
        "$CGBENCH" run -q --no-db --weights ir --name p --out "$A2W/q01.json" -- ./prog; git checkout -q main) >/dev/null 2>&1
    jq '.run.id = "c5" | .benchmarks[0].events.Ir = 100 | .benchmarks[0].cost = 100' q01.json >q01b.json
    "$CGBENCH" import -q --db "$A2W/q01.db" q01b.json >/dev/null 2>&1
    cd "$A2W/brepo" || exit 1
    cg compare --db "$A2W/q01.db" c1 c5
    cd "$A2W" || exit 1
    if [ "$RC" = 2 ] && grep -q "names both" <<<"$ERR"; then record 2:Q01 good
    elif grep -q "run c5" <<<"$OUT"; then record 2:Q01 wrong "the imported run shadowed the tag"
    else record 2:Q01 weak "exit $RC: $(first)"; fi
fi
if wanted 2:Q02; then
    rm -rf many && mkdir many
    for i in $(seq 1 3000); do jq -c --arg id "m$i" '.run.id = $id' "$W/r1.json"; done | awk '{ print > ("many/" NR ".json") }'
    t0=$(date +%s)
    r_import q02.db many
    t=$(($(date +%s) - t0))
    if [ "$RC" = 0 ] && [ "$(count_runs q02.db)" = 3000 ] && [ "$t" -le 30 ]; then record 2:Q02 good "$t s"
    else record 2:Q02 weak "exit $RC after $t s"; fi
fi
if wanted 2:Q03; then
    r_file q03a.json '.run.id = "q03-plain"'
    r_import q03.db q03a.json
    sqlite3 q03.db "INSERT INTO runs (id, started, recorded, fingerprint_key, fingerprint, warnings) SELECT 'a' || char(10) || 'b' || char(27) || '[31m', 'not a date', recorded, fingerprint_key, fingerprint, warnings FROM runs LIMIT 1" 2>/dev/null
    cg history --db q03.db --format json
    if [ "$RC" = 0 ] && jq -e . <<<"$OUT" >/dev/null 2>&1; then record 2:Q03 good; else record 2:Q03 wrong "exit $RC"; fi
fi
J01_NAMES=('@octocat please look' '@org/security-team' 'http://evil.example/login' 'www.evil.example' '<img src=https://evil.example/p.png>' '![x](https://evil.example/t.png)' $'a\u202eexe.gnp')
j_names() {  # j_names OUT COST: r1.json with a benchmark per J01 name, each of cost COST
    local names
    names="$(printf '%s\n' "${J01_NAMES[@]}" | jq -R . | jq -s .)"
    jq --argjson names "$names" --argjson c "$2" '.run.id = "j\($c)" | .benchmarks[0].events = {"Ir": $c} | .benchmarks[0].weights = {"l1": 1, "ll": 0, "ram": 0, "preset": "ir", "instructions_only": true} | .benchmarks[0].cost = $c | .benchmarks[0].derived = null | .benchmarks[0] as $b | .benchmarks = [$names[] as $n | $b | .name = $n]' "$W/r1.json" >"$1"
}
if wanted 2:Q04; then
    j_names q04a.json 100000 && j_names q04b.json 110000
    r_import q04.db q04a.json q04b.json
    cg report -q --db q04.db --html q04.html
    if [ "$RC" = 0 ] && ! grep -q $'\u202e' q04.html && ! grep -q '<img src=https' q04.html; then record 2:Q04 good
    elif [ "$RC" = 0 ]; then record 2:Q04 weak "U+202E kept raw"
    else record 2:Q04 wrong "exit $RC"; fi
fi
if wanted 2:Q05; then  # SIGTERM to cgbench-pr while the base's build runs
    rm -rf q05 && mkdir q05 && cd q05 || exit 1
    printf 'int main(void) { return 0; }\n' >prog.c
    printf '#!/bin/sh\nsh -c "sleep 120" %s\ncc -O1 -o prog prog.c\n' "$MK-q05" >build.sh && chmod +x build.sh
    git init -q -b main && git add . && git -c user.name=a -c user.email=a@b commit -q -m one && git checkout -q -b pr
    CGBENCH="$CGBENCH" PATH="$(dirname "$CGBENCH"):$PATH" "$A2ROOT/scripts/cgbench-pr.sh" --base main --build ./build.sh --command ./prog >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do [ "$(left "$MK-q05")" != 0 ] && break; sleep 0.1; done
    kill -TERM "$pid"
    wait "$pid"
    sleep 1
    n="$(left "$MK-q05")"
    kill_marked "$MK-q05"
    cd "$A2W" || exit 1
    if [ "$n" = 0 ]; then record 2:Q05 good; else record 2:Q05 weak "the build kept running after SIGTERM"; fi
fi

# --- H: the HTML report ---------------------------------------------------------------------
if wanted 2:H01 || wanted 2:H02; then
    r_file h1.json '.run.id = "h1" | .run.git = {"commit": "</script><img src=x onerror=document.title=1>", "branch": "<img src=x onerror=document.title=2>", "dirty": false}'
    r_file h2.json '.run.id = "h2" | .run.git = {"commit": "javascript:document.title=3//", "branch": "main", "dirty": false}'
    r_import h.db h1.json h2.json
fi
if wanted 2:H01; then
    cg report -q --db h.db --html h.html --commit-url 'https://example.com/c/{commit}'
    if [ "$RC" != 0 ]; then record 2:H01 wrong "exit $RC: $(first)"
    elif grep -q '<img src=x' h.html || ! grep -q "Content-Security-Policy" h.html; then record 2:H01 security "markup from the data in the page, or no CSP"
    else record 2:H01 good; fi
fi
expect 2:H02 2 "not an http" -- report --db h.db --html h.html --commit-url 'javascript:alert({commit})'

# --- N: prune -------------------------------------------------------------------------------
n_db() {  # n_db DB: 30 runs on main, started on 30 days of 2025
    local d="$A2W/n-runs"
    rm -rf "$d" "$1" && mkdir -p "$d"
    for i in $(seq 1 30); do
        jq --arg id "n$i" --arg s "$(printf '2025-01-%02dT00:00:00Z' "$i")" \
            '.run.id = $id | .run.started = $s | .run.git = {"commit": null, "branch": "main", "dirty": false}' "$W/r1.json" >"$d/$i.json"
    done
    "$CGBENCH" import -q --db "$1" "$d" >/dev/null 2>&1
}
if wanted 2:N01; then
    check 2 "prune needs to know what to drop" prune --db "$W/report.db"
    check 2 "prune needs to know what to drop" prune --db "$W/report.db" --dry-run
    settle 2:N01
fi
if wanted 2:N02; then
    n_db n02.db
    for d in 2026-13-45 2025-02-30 2025-04-31 9999-99-99 0000-00-00 zzzz-zz-zz 2025-31-01; do
        cg prune --db n02.db --older-than "$d" --keep-last 1
        if [ "$(count_runs n02.db)" != 30 ]; then variant data-loss "--older-than $d removed runs"; n_db n02.db
        elif [ "$RC" != 2 ]; then variant wrong "--older-than $d: exit $RC"
        else variant good ""; fi
    done
    settle 2:N02
fi
if wanted 2:N03; then
    for a in -5d 99999999999d tomorrow 2025-1-5; do check 2 "is not an age" prune --db "$W/report.db" --older-than "$a"; done
    settle 2:N03
fi
if wanted 2:N04; then
    cg prune --db "$W/report.db" --keep-last 0
    if [ "$RC" != 2 ]; then record 2:N04 wrong "exit $RC"
    elif grep -q 179769 <<<"$ERR"; then record 2:N04 weak "a 309-digit bound"
    else record 2:N04 good; fi
fi
if wanted 2:N05; then
    n_db n05.db
    for r in "--branch nosuch" "--branch (no branch)" "--dirty" "--keep-last 1"; do
        # shellcheck disable=SC2086
        if [ "$r" = "--branch (no branch)" ]; then cg prune --db n05.db --branch '(no branch)'; else cg prune --db n05.db $r; fi
        if [ "$RC" = 0 ]; then variant good ""; else variant wrong "$r: exit $RC"; fi
    done
    settle 2:N05
fi
if wanted 2:N06; then  # prune while a run records, and while a reader holds a transaction
    n_db n06.db
    "$CGBENCH" run -q --db n06.db --weights ir --name w1 -- "$AUD/slowwork" 1000 2 >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    cg prune -q --db n06.db --keep-last 1
    rc1=$RC
    wait "$pid"
    rc2=$?
    { echo 'BEGIN; SELECT COUNT(*) FROM runs;'; sleep 6; echo 'COMMIT;'; } | sqlite3 n06.db >/dev/null &
    sleep 0.5
    cg prune -q --db n06.db --keep-last 1
    rc3=$RC
    wait
    if [ "$rc1$rc2$rc3" = 000 ] && [ "$(sqlite3 n06.db 'PRAGMA integrity_check')" = ok ]; then record 2:N06 good
    else record 2:N06 wrong "exits $rc1 $rc2 $rc3"; fi
fi

# --- D: the database ------------------------------------------------------------------------
if wanted 2:D01 && needs_root 2:D01; then  # a WAL holding runs the file does not, read-only
    n_db d01.db
    { echo 'SELECT COUNT(*) FROM runs;'; sleep 8; } | sqlite3 d01.db >/dev/null &
    holder=$!
    sleep 0.5
    rm -rf d01more && mkdir d01more
    for i in $(seq 1 11); do jq --arg id "more$i" '.run.id = $id' "$W/r1.json" >"d01more/$i.json"; done
    "$CGBENCH" import -q --db d01.db d01more >/dev/null 2>&1
    rm -rf rod && mkdir rod && cp d01.db d01.db-wal rod/
    chmod 555 rod
    runs="$(as_user "$VICTIM" "$CGBENCH" history --db "$A2W/rod/d01.db" -n 100 --format json 2>/dev/null | jq length)"
    chmod 755 rod
    kill "$holder" 2>/dev/null
    wait
    if [ "$runs" = 41 ]; then record 2:D01 good
    else record 2:D01 wrong "${runs:-no} runs of 41 shown: the WAL was ignored"; fi
fi
if wanted 2:D02 && needs_root 2:D02; then  # another user's dangling link at a shared path
    mkdir -p "$A2W/d02shared" && chmod 1777 "$A2W/d02shared"
    rm -f "$A2W/d02-created.db"
    as_user "$OTHER" ln -s "$A2W/d02-created.db" "$A2W/d02shared/history.db"
    cg run -q --db "$A2W/d02shared/history.db" --weights ir -- "$AUD/work" 10
    if [ -e "$A2W/d02-created.db" ]; then record 2:D02 security "created through another user's link"
    else judge 2:D02 2 "symbolic link of another user"; fi
fi
if wanted 2:D03 && needs_root 2:D03; then
    n_db d03.db
    res="$(in_ns "$A2W/d03ro" 8m "cp '$A2W/d03.db' '$A2W/d03ro/' && mount -o remount,ro '$A2W/d03ro' && cd '$A2W' &&
        \$CG history --db d03ro/d03.db >/dev/null 2>&1; echo \"history \$?\"
        \$CG prune --db d03ro/d03.db --keep-last 1 2>&1 | head -c 300; echo \" prune \${PIPESTATUS[0]}\"
        \$CG import --db d03ro/d03.db '$A2W/n-runs' 2>&1 | head -c 300; echo \" import \${PIPESTATUS[0]}\"")"
    if grep -q "history 0" <<<"$res" && grep -q "prune 4" <<<"$res" && grep -q "import 4" <<<"$res" &&
        [ "$(grep -c "read-only file system" <<<"$res")" -ge 2 ]; then record 2:D03 good
    else record 2:D03 weak "$(tr '\n' ' ' <<<"$res" | head -c 160)"; fi
fi
if wanted 2:D04; then  # 2 runs of D04_N benchmarks
    jq -c --argjson n "$D04_N" '.run.id = "d4a" | (.benchmarks[0] | del(.functions)) as $b | .benchmarks = [range($n) as $k | $b | .name = "b\($k)"]' "$W/r1.json" >d04a.json
    jq -c '.run.id = "d4b"' d04a.json >d04b.json
    r_import d04.db d04a.json d04b.json
    cg report -q --db d04.db --html d04.html
    size="$(stat -c %s d04.html 2>/dev/null || echo 0)"
    if [ "$RC" = 0 ] && [ "$size" -lt 50000000 ]; then record 2:D04 good "$((size / 1000000)) MB for $D04_N benchmarks"
    elif [ "$RC" = 0 ]; then record 2:D04 weak "$((size / 1000000)) MB for $D04_N benchmarks"
    else record 2:D04 wrong "exit $RC"; fi
    rm -f d04a.json d04b.json d04.html d04.db*
fi

# --- J: CI scripts, YAML and Markdown -------------------------------------------------------
if wanted 2:J01; then
    j_names j1a.json 100000 && j_names j1b.json 110000
    cg compare --no-db --format markdown j1a.json j1b.json
    if grep -qE '@[A-Za-z0-9]' <<<"$OUT" || grep -q '://' <<<"$OUT" || grep -q $'\u202e' <<<"$OUT"; then
        record 2:J01 weak "a mention, a link or U+202E reaches the comment"
    elif [ "$RC" = 1 ]; then record 2:J01 good
    else record 2:J01 wrong "exit $RC"; fi
fi
j_many() {  # j_many OUT N NAME-LENGTH COST
    jq -c --argjson n "$2" --argjson len "$3" --argjson c "$4" '.run.id = "jm\($c)" | .benchmarks[0].events = {"Ir": $c} | .benchmarks[0].weights = {"l1": 1, "ll": 0, "ram": 0, "preset": "ir", "instructions_only": true} | .benchmarks[0].cost = $c | .benchmarks[0].derived = null | .benchmarks[0] as $b | .benchmarks = [range($n) as $k | $b | .name = ("\($k)-" + ("x" * $len))]' "$W/r1.json" >"$1"
}
if wanted 2:J02; then
    j_many j2a.json 10000 10 100000 && j_many j2b.json 10000 10 110000
    cg compare --no-db --format markdown j2a.json j2b.json
    if [ "${#OUT}" -lt 65536 ] && grep -q "more (see the JSON report)" <<<"$OUT"; then record 2:J02 good
    else record 2:J02 weak "${#OUT} bytes"; fi
fi
if wanted 2:J03; then
    j_many j3a.json 3 40000 100000 && j_many j3b.json 3 40000 110000
    cg compare --no-db --format markdown j3a.json j3b.json
    opened="$(grep -o '<details>' <<<"$OUT" | wc -l)"
    closed="$(grep -o '</details>' <<<"$OUT" | wc -l)"
    if [ "$(printf '%s' "$OUT" | wc -c)" -le 60000 ] && [ "$opened" = "$closed" ]; then record 2:J03 good
    else record 2:J03 weak "$(printf '%s' "$OUT" | wc -c) bytes: the comment workflow cuts it inside a name"; fi
fi
j_pr_repo() {  # j_pr_repo DIR: a repository whose branch pr changes nothing
    rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
    printf 'int main(void) { return 0; }\n' >prog.c
    printf '#!/bin/sh\ncc -O1 -o prog prog.c\n' >build.sh && chmod +x build.sh
    git init -q -b main && git add . && git -c user.name=a -c user.email=a@b commit -q -m one
}
if wanted 2:J04; then
    mkdir -p "$A2W/pwn"
    j_pr_repo "$A2W/j04"
    branch="feat\$(touch\${IFS}$A2W/pwn/PWN_BRANCH)\`touch\${IFS}$A2W/pwn/PWN_BT\`<img>\"q"
    git checkout -q -b "$branch" 2>/dev/null || git checkout -q -b feat-fallback
    GITHUB_HEAD_REF="$branch" CGBENCH="$CGBENCH" PATH="$(dirname "$CGBENCH"):$PATH" "$A2ROOT/scripts/cgbench-pr.sh" --base main --build ./build.sh --command ./prog >/dev/null 2>"$A2W/.j04"
    rc=$?
    cd "$A2W" || exit 1
    if compgen -G "$A2W/pwn/PWN*" >/dev/null; then record 2:J04 security "the branch name ran"
    elif [ "$rc" = 0 ]; then record 2:J04 good
    else record 2:J04 wrong "exit $rc: $(grep -m 1 error "$A2W/.j04" | head -c 200)"; fi
fi
if wanted 2:J05; then
    j_pr_repo "$A2W/j05" && git checkout -q -b pr
    CGBENCH="$CGBENCH" PATH="$(dirname "$CGBENCH"):$PATH" "$A2ROOT/scripts/cgbench-pr.sh" --base main --build ./build.sh --command "./prog \$(touch $A2W/pwn-cmd)" >/dev/null 2>&1
    cd "$A2W" || exit 1
    if [ -e "$A2W/pwn-cmd" ]; then record 2:J05 weak "--command is eval'd: \$(...) ran"; else record 2:J05 good; fi
fi
if wanted 2:J06; then  # action.yml: no ${{ }} in the text of a run: step
    bad="$(awk '/^ *run: *\|/ { inrun = 1; indent = match($0, /[^ ]/); next }
        inrun && NF && match($0, /[^ ]/) <= indent { inrun = 0 }
        inrun && /\$\{\{/ { print FILENAME ":" NR }' "$A2ROOT/ci/github/action.yml")"
    if [ -z "$bad" ]; then record 2:J06 good; else record 2:J06 security "expressions in shell text: $bad"; fi
fi
if wanted 2:J07; then  # the comment workflow's pull-request lookup encodes the branch (by reading)
    wf="$A2ROOT/ci/github/examples/cgbench-comment.yml"
    if grep -q 'pulls?[^"]*head=\$' "$wf"; then record 2:J07 weak "the branch goes into the query string unencoded"
    elif grep -qE -- '-f "?head=\$' "$wf"; then record 2:J07 good  # gh api -f: a field gh encodes
    else record 2:J07 skip "no pull-request lookup found in $wf to read"; fi
fi
if wanted 2:J08; then  # the GitLab template runs the cached installer (by reading)
    # Fixed: what a merge request's job saved is never restored by a job of a protected ref
    # (the history job, which holds the push token): the cache key tells them apart; or the
    # cached installer is checked against a checksum before it runs.
    yml="$A2ROOT/ci/gitlab/cgbench.gitlab-ci.yml"
    if grep -qE '^ *- key: .*\$CI_COMMIT_REF_PROTECTED' "$yml"; then record 2:J08 good "cache keyed by protected ref"
    elif grep -qE 'sha256sum[^|]*(installer|\.cgbench-install)' "$yml"; then record 2:J08 good "cache checked"
    else record 2:J08 weak "a merge request's cached installer runs in every job of its cache key"; fi
fi

# --- W: weights files -----------------------------------------------------------------------
if wanted 2:W01; then
    printf 'schema = "cgbench-weights/1"\nname = "huge"\nl1 = 9223372036854775807\nll = 5\nram = 35\n' >w_huge.toml
    rm -f w01.ran
    cg run --no-db --weights w_huge.toml -- "$W/marker" w01.ran
    if [ "$RC" = 2 ] && [ ! -e w01.ran ]; then record 2:W01 good
    elif [ "$RC" = 2 ]; then record 2:W01 weak "found only after measuring"
    else record 2:W01 wrong "exit $RC"; fi
fi
if wanted 2:W02; then
    printf 'name = "\\u001b[2J\\u001b[31mRED\\u0007"\nl1 = 1\nll = 5\nram = 35\n' >w_esc.toml
    cg run --no-db --weights w_esc.toml -- "$AUD/work" 10
    if grep -q $'\x1b' <<<"$OUT$ERR"; then record 2:W02 weak "the escape sequence reached the terminal"; else record 2:W02 good; fi
fi
if wanted 2:W03; then
    printf 'name = "mine"\nl1 = 1\nll = 5\nram = 35\n' >wa.toml
    printf 'name = "mine"\nl1 = 1\nll = 50\nram = 350\n' >wb.toml
    "$CGBENCH" run -q --no-db --weights wa.toml --name w --out wa.json -- "$AUD/work" 100 >/dev/null 2>&1
    "$CGBENCH" run -q --no-db --weights wb.toml --name w --out wb.json -- "$AUD/work" 100 >/dev/null 2>&1
    expect 2:W03 2 "measured differently" -- compare --no-db wa.json wb.json
fi

# --- C: calibrate ---------------------------------------------------------------------------
if wanted 2:C01; then
    for a in "--sizes 0" "--sizes 1K,1K" "--sizes 99999999T" "--sizes -1K" "--steps 0" "--cpu -1" \
        "--max-noise abc" "--max-noise -5%" "--clock bogus" "--rounds 0"; do
        # shellcheck disable=SC2086
        check 2 "" calibrate $a
    done
    settle 2:C01
fi
if wanted 2:C02; then
    cg calibrate --steps 99999999999999999999
    if [ "$RC" != 2 ]; then record 2:C02 wrong "exit $RC"
    elif grep -q 18446744073709551615 <<<"$ERR"; then record 2:C02 weak "names another number than given"
    else record 2:C02 good; fi
fi
if wanted 2:C03; then
    cg calibrate --cpu 999 --sizes 4K --steps 20000 --rounds 1 --repeat 1 --max-noise 100%
    if [ "$RC" = 2 ]; then record 2:C03 good; else record 2:C03 weak "exit $RC: CPU 999 accepted"; fi
fi
if wanted 2:C04; then  # a fit that explains nothing (the times are sleeps no count sees)
    printf '[[bench]]\nname = "sa"\ncommand = ["/bin/sleep", "0.3"]\n\n[[bench]]\nname = "sb"\ncommand = ["/bin/sleep", "0.6"]\n\n[[bench]]\nname = "sc"\ncommand = ["/bin/sleep", "0.9"]\n' >c04.toml
    rm -f c04w.toml
    cg calibrate --sizes 4K --steps 20000 --rounds 1 --repeat 1 --clock wall --max-noise 100% --suite c04.toml --out c04w.toml
    if [ -e c04w.toml ] && ! grep -qi "explain little\|R²" <<<"$ERR"; then record 2:C04 weak "a degenerate fit written with no warning"
    elif [ "$RC" = 4 ] || grep -qi "explain little" <<<"$ERR"; then record 2:C04 good
    else record 2:C04 wrong "exit $RC: $(first)"; fi
fi

# --- M, E -----------------------------------------------------------------------------------
if wanted 2:M01 || wanted 2:M02; then
    printf '[[bench]]\nname = "a"\ncommand = ["%s", "100"]\n\n[[bench]]\nname = "b"\ncommand = ["%s", "200"]\n' "$AUD/work" "$AUD/work" >m_s.toml
    printf '[[bench]]\nname = "c"\ncommand = ["%s", "100"]\n\n[[bench]]\nname = "d"\ncommand = ["%s", "200"]\n\n[[bench]]\nname = "e"\ncommand = ["%s", "300"]\n' "$AUD/work" "$AUD/work" "$AUD/work" >m_s2.toml
    "$CGBENCH" run -q --no-db --weights ir --suite m_s.toml --shard 1/2 --out m_s1.json >/dev/null 2>&1
    "$CGBENCH" run -q --no-db --weights ir --suite m_s2.toml --shard 2/2 --out m_t2.json >/dev/null 2>&1
    "$CGBENCH" run -q --no-db --weights ir --suite m_s.toml --shard 2/2 --out m_s2.json >/dev/null 2>&1
fi
if wanted 2:M01; then
    cg merge --no-db m_s1.json m_t2.json --out m2.json
    if [ "$RC" = 2 ]; then record 2:M01 good
    elif [ "$RC" = 0 ]; then record 2:M01 weak "shards of different suites merged: $(jq -c '[.benchmarks[].name]' m2.json 2>/dev/null)"
    else record 2:M01 wrong "exit $RC"; fi
fi
if wanted 2:M02; then
    jq '.run.git.commit = "2222222222222222222222222222222222222222"' m_s1.json >m_s1x.json
    jq '.run.git.commit = "1111111111111111111111111111111111111111" | .run.git.dirty = true' m_s2.json >m_s2x.json
    expect 2:M02 2 "merge shards of one pipeline" -- merge --no-db m_s1x.json m_s2x.json --out m3.json
fi
if wanted 2:E01; then  # no secret printed
    secrets=(GITHUB_TOKEN=ghp_a2secret1 CGBENCH_GITLAB_TOKEN=glpat-a2secret2 CGBENCH_PUSH_TOKEN=a2secret3
        AWS_SECRET_ACCESS_KEY=a2secret4 "CGBENCH_HISTORY_REMOTE=https://x:a2secret5@example.invalid/r.git")
    out="$(env "${secrets[@]}" "$CGBENCH" config show 2>&1; env "${secrets[@]}" "$CGBENCH" -vv config show 2>&1
        env "${secrets[@]}" "$CGBENCH" -vv run --no-db --weights ir -- "$AUD/work" 10 2>&1)"
    if grep -q "a2secret" <<<"$out"; then record 2:E01 security "a secret was printed"; else record 2:E01 good; fi
fi
cd "$W" || exit 1
