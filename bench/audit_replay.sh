#!/usr/bin/env bash
# audit_replay.sh — replays the cases of the reliability audits against the built binary:
# ../shared/reports/reliability-audit.md (165 rows: C01-C37, T01-T24, F01-F35, O01-O23,
# I01-I08, K01, J01-J12, M01-M25) and reliability-audit-2.md (86 rows, as 2:P01 ... 2:E01,
# bench/audit_replay_2.sh): 251 cases, each judged as its audit did:
# good (right exit code, clear message, nothing lost), weak, wrong, data-loss, crash (also
# any case in which cgbench itself dies of SIGSEGV, SIGABRT, ...), security; or skip (needs
# root, or cannot be automated; the reason is printed).
#
# Each case states what a fixed cgbench does (the documented behaviour) and checks the
# outcome: the exit code, the message, and what was written or lost. Cases that need device
# nodes or full filesystems run in a private mount namespace over a private tmpfs (unshare
# -m), cases of another user run as uid 65534 (setpriv); both need root. Nothing touches the
# machine's /dev. At most 2 Valgrind processes run at a time, except in K01 (8 writers).
#
# Usage: bench/audit_replay.sh [ID-REGEX]      e.g. bench/audit_replay.sh '^(D|O0)', '^2:B'
# Env:   SKIP_BUILD=1, K01_RUNS=N (runs per writer, default 10; the audit ran 100),
#        I07_KILLS=N (default 20; the audit ran 80), AUDIT_CGBENCH=PATH (replay another
#        binary, e.g. an older build or a merge, with this tree's test programs),
#        AUDIT_ROOT=DIR (the tree whose scripts/ and ci/ the cases run or read, e.g. the one
#        AUDIT_CGBENCH was built from; default this one), and those of audit_replay_2.sh
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
CGBENCH="${AUDIT_CGBENCH:-$CGBENCH}"
AROOT="${AUDIT_ROOT:-$ROOT}"
ONLY="${1:-.}"
K01_RUNS="${K01_RUNS:-10}"
I07_KILLS="${I07_KILLS:-20}"
unset CGBENCH_DB  # each case names its database, or uses --no-db
for tool in jq sqlite3 cc perl; do
    command -v "$tool" >/dev/null || { echo "audit: needs $tool" >&2; exit 1; }
done
W="$TMP/w"
mkdir -p "$W"
chmod 755 "$TMP"  # the cases run as uid 65534 must reach $W (mktemp makes $TMP 0700)
cd "$W" || exit 1
ROOT_OK=0
[ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v setpriv >/dev/null && ROOT_OK=1
# PROGRAMS: set by bench_init (the test programs of $BUILD)

# --- results ----------------------------------------------------------------------------
declare -A VERDICT NOTE
IDS=()
record() {  # record ID VERDICT [NOTE]: a case in which cgbench crashed (CRASH) is a crash
    local v="$2" note="${3:-}"
    if [ -n "${CRASH:-}" ] && [ "$v" != skip ]; then v=crash note="$CRASH"; fi
    CRASH=""
    IDS+=("$1")
    VERDICT[$1]="$v"
    NOTE[$1]="$note"
}
wanted() { [[ "$1" =~ $ONLY ]]; }
# cg ARGS...: runs cgbench; RC, OUT, ERR
cg() {
    "$CGBENCH" "$@" >"$W/.out" 2>"$W/.err" </dev/null
    RC=$?
    OUT="$(<"$W/.out")"  # no external command: a case may run with PATH=
    ERR="$(<"$W/.err")"
    case "$RC" in  # SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV: the case's verdict is crash
        132 | 134 | 135 | 136 | 139) CRASH="${CRASH:-cgbench $1 killed by signal $((RC - 128)): ${ERR:0:120}}" ;;
    esac
}
first() { head -c 160 <<<"$ERR$OUT" | tr '\n' ' '; }
# judge ID WANT-RC REGEX: good when the exit code is WANT-RC and stderr/stdout match REGEX
# (grep -E), weak when only the code does, else wrong.
judge() {
    if [ "$RC" != "$2" ]; then
        record "$1" wrong "exit $RC, want $2: $(first)"
    elif [ -n "$3" ] && ! grep -qE -- "$3" <<<"$ERR$OUT"; then
        record "$1" weak "message: $(first)"
    else
        record "$1" good
    fi
}
# expect ID WANT-RC REGEX -- ARGS...
expect() {
    local id="$1" rc="$2" re="$3"
    shift 4
    wanted "$id" || return 0
    cg "$@"
    judge "$id" "$rc" "$re"
}
# all_of ID [VERDICT NOTE]...: the worst of several variants' verdicts
rank() { case "$1" in good) echo 0 ;; skip) echo 1 ;; weak) echo 2 ;; wrong) echo 3 ;; *) echo 4 ;; esac; }
VARIANTS=()
variant() {  # variant VERDICT NOTE: one variant of the case being judged
    VARIANTS+=("$1|$2")
}
settle() {  # settle ID: records the worst variant
    local worst=good note="" v
    for v in "${VARIANTS[@]}"; do
        if [ "$(rank "${v%%|*}")" -gt "$(rank "$worst")" ]; then
            worst="${v%%|*}"
            note="${v#*|}"
        fi
    done
    record "$1" "$worst" "$note"
    VARIANTS=()
}
# check WANT-RC REGEX ARGS...: runs one variant
check() {
    local rc="$1" re="$2"
    shift 2
    cg "$@"
    if [ "$RC" != "$rc" ]; then
        variant wrong "$* -> exit $RC, want $rc: $(first)"
    elif [ -n "$re" ] && ! grep -qE -- "$re" <<<"$ERR$OUT"; then
        variant weak "$* -> $(first)"
    else
        variant good ""
    fi
}
needs_root() {  # needs_root ID: records a skip unless root
    if [ "$ROOT_OK" != 1 ]; then
        record "$1" skip "needs root (unshare, setpriv)"
        return 1
    fi
}
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# in_ns DIR SIZE SCRIPT: runs bash SCRIPT in a private mount namespace with a tmpfs of SIZE
# at DIR (created); CG is the binary there.
in_ns() {
    mkdir -p "$1"
    CG="$CGBENCH" unshare -m --propagation private bash -c \
        "mount -t tmpfs -o size=$2 tmpfs '$1' && $3"
}
count_runs() { [ -f "$1" ] && sqlite3 "$1" 'SELECT COUNT(*) FROM runs' 2>/dev/null || echo 0; }

# --- the programs the audit measured ------------------------------------------------------
build_c() {  # build_c NAME SOURCE [CFLAGS...]
    local name="$1" src="$2"
    shift 2
    printf '%s\n' "$src" >"$W/$name.c"
    cc -O1 -o "$W/$name" "$W/$name.c" "$@" || { echo "audit: cannot build $name" >&2; exit 1; }
}
build_c tiny 'int main(void) { return 0; }'
build_c work '#include <stdlib.h>
int main(int c, char** v) { volatile unsigned long a = 0; long n = c > 1 ? atol(v[1]) : 1000;
for (long i = 0; i < n; ++i) a += (unsigned long)i * i; return 0; }'
build_c slowwork '#include <stdlib.h>
#include <unistd.h>
int main(int c, char** v) { sleep(c > 1 ? atoi(v[1]) : 1); return 0; }'
build_c hang '#include <unistd.h>
int main(void) { for (;;) pause(); }'
build_c segv 'int main(void) { volatile int* p = 0; return *p; }'
build_c abrt '#include <stdlib.h>
int main(void) { abort(); }'
build_c selfkill '#include <signal.h>
int main(void) { raise(SIGKILL); return 0; }'
build_c exit3 '#include <stdio.h>
int main(void) { fprintf(stderr, "failing on purpose\n"); return 3; }'
build_c grandchild '#include <string.h>
#include <unistd.h>
int main(int c, char** v) {
  if (fork() == 0) {
    if (c > 1 && strcmp(v[1], "setsid") == 0) setsid();
    if (c > 2 && strcmp(v[2], "close") == 0) { close(0); close(1); close(2); }
    execl("/bin/sleep", "sleep", "300", "cgbench-audit-grandchild", (char*)0);
    _exit(1);
  }
  return 0; }'
build_c bigout '#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int c, char** v) { static char b[1 << 20]; memset(b, 120, sizeof b);
long n = c > 1 ? atol(v[1]) : 1;
for (long i = 0; i < n; ++i) { if (write(1, b, sizeof b) < 0 || write(2, b, sizeof b) < 0) return 1; }
return 0; }'
build_c closeout '#include <unistd.h>
int main(void) { close(1); close(2); return 0; }'
build_c readin '#include <stdio.h>
#include <unistd.h>
int main(void) { char b[65536]; long n = 0; ssize_t r;
while ((r = read(0, b, sizeof b)) > 0) n += r;
fprintf(stderr, "read %ld\n", n); return 0; }'
build_c chdirp '#include <unistd.h>
int main(void) { return chdir("/") != 0; }'
build_c threads '#include <pthread.h>
static volatile unsigned long shared;
static void* run(void* a) { (void)a; for (int i = 0; i < 200000; ++i) shared += (unsigned long)i; return 0; }
int main(void) { pthread_t t[4]; for (int i = 0; i < 4; ++i) pthread_create(&t[i], 0, run, 0);
for (int i = 0; i < 4; ++i) pthread_join(t[i], 0); return 0; }' -pthread
build_c stopme '#include <signal.h>
int main(void) { raise(SIGSTOP); return 0; }'
build_c fakegb '#include <string.h>
#include <unistd.h>
static const char* flag = "--benchmark_list_tests";
int main(int c, char** v) { for (int i = 1; i < c; ++i) if (strncmp(v[i], flag, strlen(flag)) == 0) sleep(300);
return 0; }'
build_c marker '#include <stdio.h>
int main(int c, char** v) { if (c > 1) { FILE* f = fopen(v[1], "w"); if (f) fclose(f); } return 0; }'
build_c reg3000 '#include <cgbench/cgbench.h>
int main(void) { volatile int x = 0; for (int i = 0; i < 3000; ++i) { CGBENCH_REGION_BEGIN("r"); x += i; CGBENCH_REGION_END("r"); } return 0; }' \
    -I"$ROOT/include"
build_c showenv '#include <stdio.h>
#include <stdlib.h>
int main(void) { const char* p = getenv("LD_PRELOAD"); printf("%s\n", p ? p : ""); return 0; }'
printf '#!/usr/bin/env python3\ns = 0\nfor i in range(20000):\n    s += i * i\n' >pyscript
printf '#!/bin/sh\nexec /usr/bin/python3 -c "s = sum(i * i for i in range(20000))"\n' >shexec
cp "$W/tiny.c" textexec
printf 'int main(void) { return 0; }\n' >noexec
chmod +x pyscript shexec textexec
chmod 644 noexec
mkdir -p adir
# A real result file, and a second one of another benchmark.
"$CGBENCH" run -q --no-db --name w1 --out r1.json -- ./work 1000 || exit 1
"$CGBENCH" run -q --no-db --name w1 --out r2.json -- ./work 1200 || exit 1
printf '[[bench]]\nname = "s1"\ncommand = ["./tiny"]\n\n[[bench]]\nname = "s2"\ncommand = ["./work", "500"]\n' >suite.toml

# --- C: command-line usage ----------------------------------------------------------------
mkdir -p empty
expect C01 2 "unknown option '--bogus'" -- run --bogus -- ./tiny
if wanted C02; then
    cd empty && cg run --no-db; cd "$W" || exit 1
    judge C02 2 "no program given"
fi
expect C03 2 "power of two" -- run --no-db --geometry I1=1000,3,64 -- ./tiny
expect C04 2 "'a' is not a positive integer" -- run --no-db --geometry 'I1=a,b,c' -- ./tiny
expect C05 2 "is not a positive integer" -- run --no-db --geometry LL=99999999999999999999,16,64 -- ./tiny
expect C06 2 "invalid weights '1,2'" -- run --no-db --weights 1,2 -- ./tiny
expect C07 2 "invalid weights" -- run --no-db --weights -1,5,35 -- ./tiny
if wanted C08; then  # found before measuring: the marker program never runs
    rm -f c08.ran
    cg run --no-db --weights 18446744073709551615,1,1 -- ./marker c08.ran
    if [ "$RC" = 2 ] && [ ! -e c08.ran ]; then record C08 good
    elif [ "$RC" = 2 ]; then record C08 weak "found only after measuring: $(first)"
    else record C08 wrong "exit $RC: $(first)"; fi
fi
expect C09 2 "is not a percentage" -- run --no-db --threshold 'cost=abc%' -- ./tiny
expect C10 2 "unknown metric 'bogus'" -- run --no-db --threshold 'bogus=1%' -- ./tiny
expect C11 2 "is not a percentage" -- run --no-db --threshold 'cost=-5%' -- ./tiny
expect C12 2 "invalid job count '0'" -- run --no-db -j 0 -- ./tiny
if wanted C13; then
    check 2 "invalid job count" run --no-db -j -3 -- ./tiny
    check 2 "invalid job count" run --no-db -j 99999999999 -- ./tiny
    settle C13
fi
if wanted C14; then
    check 2 "invalid shard '3/2'" run --no-db --shard 3/2 --suite suite.toml
    check 2 "invalid shard '0/0'" run --no-db --shard 0/0 --suite suite.toml
    settle C14
fi
expect C15 2 "--shard splits a suite" -- run --no-db --shard 1/2 -- ./tiny
if wanted C16; then
    for t in -1 0 nan 1e400; do check 2 "invalid timeout" run --no-db --timeout "$t" -- ./tiny; done
    settle C16
fi
expect C17 0 "" -- run -q --no-db --timeout 1e10 -- ./work 1000
if wanted C18; then
    CGBENCH_TIMEOUT=-5 cg run --no-db -- ./tiny
    judge C18 2 "from CGBENCH_TIMEOUT"
fi
if wanted C19; then
    check 2 "verify" run --no-db --verify 0 -- ./tiny
    check 2 "verify" run --no-db --verify 1001 -- ./tiny
    settle C19
fi
expect C20 2 "not expected: --bogus" -- compare --no-db --bogus r1.json r2.json
expect C21 2 "not expected" -- compare --no-db r1.json r2.json r1.json
expect C22 2 "is neither a result file" -- compare --no-db nofile.json r2.json
expect C23 2 "not a whole number" -- compare --no-db --threshold 'cost=1%|abc' r1.json r2.json
expect C24 2 "unknown format 'xml'" -- compare --no-db --format xml r1.json r2.json
expect C25 2 "no history database at missing.db" -- compare --db missing.db
if wanted C26; then
    check 2 "not expected" history --bogus
    check 2 "not expected" history a b
    settle C26
fi
if wanted C27; then  # a short message naming the rule, not a 309-digit range
    for args in "history --db h.db -n 0" "report --html x.html --last 0"; do
        # shellcheck disable=SC2086
        cg $args
        if [ "$RC" != 2 ]; then variant wrong "$args -> exit $RC"
        elif grep -q 179769 <<<"$ERR" || ! grep -q "at least 1" <<<"$ERR"; then variant weak "$args -> $(first)"
        else variant good ""; fi
    done
    settle C27
fi
expect C28 2 "no history database at missing.db" -- history --db missing.db
expect C29 2 "format is required" -- export --db h.db
if wanted C30; then
    check 2 "unknown export format 'csv'" export --no-db --format csv r1.json
    check 2 "neither a result file" export nosuchrun --db missing.db --format bencher
    settle C30
fi
expect C31 2 "files is required" -- merge --no-db
expect C32 2 "measured twice" -- merge --no-db r1.json r1.json
expect C33 2 "unknown subcommand 'bogus'" -- config bogus
if wanted C34; then
    cd empty && cg config show --weights foo; cd "$W" || exit 1
    judge C34 2 "invalid weights 'foo'"
fi
if wanted C35; then
    check 2 "RUN is required" annotate --no-db
    check 2 "has no benchmark named 'nosuch'" annotate --no-db r1.json nosuch
    check 2 "top" annotate --no-db --top -5 r1.json w1
    check 2 "top" annotate --no-db --top 0 r1.json w1
    settle C35
fi
if wanted C36; then
    check 2 "html is required" report --db h.db
    check 2 "invalid --filter" report --db h.db --html x.html --filter '(['
    check 2 "no history database" report --db missing.db --html x.html
    settle C36
fi
if wanted C37; then
    check 2 "needs a subcommand" 
    check 2 "unknown subcommand 'frobnicate'" frobnicate
    settle C37
fi

# --- T: the measured program --------------------------------------------------------------
# The grandchildren `grandchild` left (their argv carries a marker; their cwd is below $TMP).
grandchildren() {
    local pid
    for pid in $(pgrep -f cgbench-audit-grandchild); do
        [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == "$TMP"* ]] && echo "$pid"
    done
}
survivors() { grandchildren | wc -l; }
kill_survivors() {
    local pid
    for pid in $(grandchildren); do kill "$pid" 2>/dev/null; done
    true
}
if wanted T01; then
    check 2 "not found" run --no-db -- ./does-not-exist
    check 2 "not found" run --no-db -- not-on-path-xyz
    settle T01
fi
expect T02 2 "is not executable" -- run --no-db -- ./noexec
expect T03 2 "is a directory" -- run --no-db -- ./adir
expect T04 3 "exited with status 2" -- run --no-db -- ./textexec
if wanted T05; then
    rm -f t05.db t05.json
    cg run --db t05.db --out t05.json -- ./exit3
    if [ "$RC" = 3 ] && [ "$(count_runs t05.db)" = 1 ] && [ ! -e t05.json ]; then record T05 good
    else record T05 wrong "exit $RC, runs $(count_runs t05.db): $(first)"; fi
fi
if wanted T06; then
    check 3 "killed by Segmentation fault" run --no-db -- ./segv
    check 3 "killed by Aborted" run --no-db -- ./abrt
    check 3 "killed by Killed" run --no-db -- ./selfkill
    settle T06
fi
expect T07 3 "timed out after 3 s" -- run --no-db --timeout 3 -- ./hang
expect T08 3 "timed out after 3 s" -- run --no-db --timeout 3 -- ./stopme
for t in "T09 group" "T10 setsid" "T11 setsid close"; do
    id="${t%% *}"
    wanted "$id" || continue
    kill_survivors
    # shellcheck disable=SC2086
    cg run --no-db -- ./grandchild ${t#* }
    sleep 1
    left="$(survivors)"
    kill_survivors
    if [ "$RC" != 0 ]; then record "$id" wrong "exit $RC: $(first)"
    elif [ "$left" != 0 ]; then record "$id" wrong "the grandchild outlived cgbench (D9, processes)"
    elif ! grep -q "outlived the program and were killed" <<<"$OUT$ERR"; then record "$id" weak "killed, not reported"
    else record "$id" good; fi
done
expect T12 0 "" -- run -q --no-db -- ./bigout 200
expect T13 0 "" -- run -q --no-db -- ./closeout
expect T14 0 "read 0" -- run -q --no-db --show-output -- ./readin
if wanted T15; then
    yes 0123456789abcdef | head -c 1000000 >in.bin
    check 0 "read 1000000" run -q --no-db --show-output --stdin in.bin -- ./readin
    check 2 "nope.bin of 'readin' does not exist" run -q --no-db --stdin nope.bin -- ./readin
    settle T15
fi
expect T16 2 "is a directory" -- run -q --no-db --stdin /tmp -- ./readin
if wanted T17; then  # endless stdin: a FIFO whose writer never closes it
    rm -f t17.fifo && mkfifo t17.fifo
    (exec 3>t17.fifo; sleep 8) &
    cg run --no-db --timeout 3 --stdin t17.fifo -- ./readin
    wait
    judge T17 3 "timed out after 3 s"
fi
expect T18 0 "" -- run -q --no-db -- ./chdirp
if wanted T19; then  # threads race: --verify reports a spread (or none if they did not)
    cg run --no-db --verify 2 -- ./threads
    if [ "$RC" = 3 ] && grep -q "not repeatable" <<<"$ERR"; then record T19 good
    elif [ "$RC" = 0 ]; then record T19 good "no race this time"
    else record T19 wrong "exit $RC: $(first)"; fi
fi
for t in "T20 ./pyscript" "T21 ./shexec"; do  # D6 (processes): an exec is measured
    id="${t%% *}"
    wanted "$id" || continue
    cg run -q --no-db --weights ir -- ${t#* }
    if [ "$RC" = 0 ]; then record "$id" good
    elif [ "$RC" = 4 ] && grep -q "without writing a profile" <<<"$ERR"; then
        record "$id" wrong "exec not followed, blamed on the environment (D6, processes)"
    else record "$id" weak "exit $RC: $(first)"; fi
done
expect T22 0 "" -- run -q --no-db --weights ir -- /usr/bin/python3 -c $'s=0\nfor i in range(20000): s+=i*i'
expect T23 0 "" -- run -q --no-db -- ./work $'1000\nevents: fake'
expect T24 0 "" -- run -q --no-db --regions -- "$EXAMPLES/sort_regions" $'1000\nx'

# --- F: files read: result files, suites, databases ----------------------------------------
head -c 300 r1.json >trunc.json
: >empty.json
awk 'BEGIN { srand(3); for (i = 0; i < 5000; i++) printf "%c", 128 + int(rand() * 127) }' >garbage.json
printf '{"schema": "cgbench-result/1"}' >minimal.json
printf '[]' >array.json
expect F01 2 "trunc.json: not valid JSON" -- compare --no-db trunc.json r2.json
if wanted F02; then
    check 2 "empty.json: not valid JSON" compare --no-db empty.json r2.json
    check 2 "not valid JSON" merge --no-db empty.json
    settle F02
fi
if wanted F03; then  # the raw bytes of the file are not echoed to the terminal
    cg compare --no-db garbage.json r2.json
    if [ "$RC" != 2 ]; then record F03 wrong "exit $RC"
    elif LC_ALL=C grep -q $'[\x80-\xff]' <<<"$ERR"; then record F03 weak "raw bytes in the message"
    else record F03 good; fi
fi
if wanted F04; then
    check 2 "has no \"run\"|no .run" compare --no-db minimal.json r2.json
    check 2 "not an object" compare --no-db array.json r2.json
    settle F04
fi
if wanted F05; then
    jq '.benchmarks[0].events.Ir = -5' r1.json >neg.json
    jq '.benchmarks[0].cost = "lots"' r1.json >lots.json
    sed 's/"Ir": [0-9]*/"Ir": 18446744073709551621/' r1.json >big.json
    jq '.schema = "cgbench-result/2"' r1.json >schema2.json
    for f in neg lots big schema2; do check 2 "$f.json" compare --no-db "$f.json" r2.json; done
    settle F05
fi
if wanted F06; then
    { printf '%.0s[' $(seq 1 100000); printf '%.0s]' $(seq 1 100000); } >deep.json
    expect F06 2 "not an object" -- compare --no-db deep.json r2.json
fi
if wanted F07; then
    jq '.benchmarks = []' r1.json >nobench.json
    expect F07 0 "PASS" -- compare --no-db nobench.json r2.json
fi
if wanted F08; then  # a FIFO nobody writes: refused, no hang
    rm -f ff.json && mkfifo ff.json
    expect F08 2 "is neither a result file" -- compare --no-db ff.json r2.json
fi
if wanted F09; then
    check 2 "directory" merge --no-db adir
    check 0 "" merge -q --no-db r1.json --out m.json
    settle F09
fi
if wanted F10; then
    check 2 "not valid JSON" annotate --no-db trunc.json w1
    check 2 "not valid JSON" export --no-db trunc.json --format bencher
    settle F10
fi
suite_err() {  # suite_err TEXT REGEX: config show of a suite holding TEXT exits 2 with REGEX
    printf '%b' "$1" >bad.toml
    check 2 "$2" config show --suite bad.toml
}
if wanted F11; then suite_err '[[bench]]\nname = "a\001\n' "bad.toml:[0-9]+:"; settle F11; fi
if wanted F12; then suite_err '[[bench]]\nname = "a"\ncomand = ["./tiny"]\n' "did you mean 'command'"; settle F12; fi
if wanted F13; then suite_err '[[bench]]\nname = "a"\ncommand = ["./tiny"]\n[[bench]]\nname = "a"\ncommand = ["./tiny"]\n' "duplicate benchmark name 'a'"; settle F13; fi
if wanted F14; then
    suite_err '' "no \\[\\[bench\\]\\]"
    suite_err '[defaults]\ntimeout = 3\n' "no \\[\\[bench\\]\\]"
    suite_err '[benchmark]\nx = 1\n' "unknown key 'benchmark'"
    suite_err 'a = "\0"\n' "bad.toml"
    settle F14
fi
if wanted F15; then
    suite_err '[[bench]]\nname = "a"\ncommand = ["./tiny"]\nweights = "ir"\n' "'weights' cannot be set"
    suite_err '[[bench]]\nname = "a"\ncommand = []\n' "non-empty array"
    suite_err '[[bench]]\nname = "a"\ncommand = "./tiny 1"\n' "non-empty array"
    suite_err '[[bench]]\nname = ""\ncommand = ["./tiny"]\n' "empty name"
    suite_err '[[bench]]\nname = "a"\ncommand = ["./tiny"]\ntimeout = -3\n' "positive number of seconds"
    settle F15
fi
if wanted F16; then
    for i in $(seq 1 10000); do printf '[[bench]]\nname = "b%05d"\ncommand = ["./tiny"]\n' "$i"; done >big.toml
    check 0 "" config show --suite big.toml
    check 0 "" run -q --no-db --suite big.toml --shard 1/100 --weights ir -j2 --out f16.json
    settle F16
fi
if wanted F17; then
    { printf 'x = '; printf '%.0s[' $(seq 1 100000); printf '%.0s]' $(seq 1 100000); printf '\n'; } >bad.toml
    check 2 "maximum nested value depth" config show --suite bad.toml
    { printf 'x = '; printf '%.0s{a=' $(seq 1 50000); printf '1'; printf '%.0s}' $(seq 1 50000); printf '\n'; } >bad.toml
    check 2 "bad.toml:1:" config show --suite bad.toml
    settle F17
fi
if wanted F18; then  # 40,000 dotted parts: the TOML parser used to overflow the stack
    { printf '[a'; printf '%.0s.a' $(seq 1 40000); printf ']\nx = 1\n'; } >bad.toml
    cg config show --suite bad.toml
    if [ "$RC" -ge 128 ]; then record F18 crash "killed by signal $((RC - 128))"; else judge F18 2 "dotted parts"; fi
fi
if wanted F19; then  # 200 MB: refused by size, or read
    { printf '# '; yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | tr -d '\n' | head -c 200000000; printf '\n[[bench]]\nname = "a"\ncommand = ["./tiny"]\n'; } >huge.toml
    cg config show --suite huge.toml
    if [ "$RC" = 0 ] || { [ "$RC" = 2 ] && grep -q "more than the" <<<"$ERR"; }; then record F19 good
    else record F19 wrong "exit $RC: $(first)"; fi
    rm -f huge.toml
fi
digest() { md5sum "$1" | cut -d' ' -f1; }
fresh_db() {  # fresh_db PATH: a history database holding one run
    rm -f "$1" "$1-wal" "$1-shm"
    "$CGBENCH" run -q --db "$1" --name w1 -- ./work 1000 || exit 1
}
db_refused() {  # db_refused ID FILE REGEX: run and history refuse FILE with exit 4, leave it
    local id="$1" f="$2" re="$3" before
    wanted "$id" || return 0
    before="$(digest "$f")"
    check 4 "$re" run -q --db "$f" -- ./tiny
    check 4 "$re" history --db "$f"
    [ "$(digest "$f")" = "$before" ] || variant data-loss "$f was changed"
    settle "$id"
}
awk 'BEGIN { srand(20); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 256) }' >rand.db
db_refused F20 rand.db "not a cgbench history database, or damaged"
if wanted F21; then
    fresh_db full.db
    head -c 5000 full.db >trunc5000.db
    head -c 16384 full.db >trunc16k.db
    db_refused F21 trunc5000.db "damaged"
fi
if wanted F22; then
    : >zero.db
    cg run -q --db zero.db -- ./tiny
    if [ "$RC" = 0 ] && [ "$(count_runs zero.db)" = 1 ]; then record F22 good; else record F22 wrong "exit $RC: $(first)"; fi
fi
if wanted F23; then
    mkdir -p dir.db
    check 4 "dir.db" run -q --db dir.db -- ./tiny
    check 4 "dir.db" history --db dir.db
    settle F23
fi
if wanted F24; then
    fresh_db newer.db
    sqlite3 newer.db 'PRAGMA user_version = 99'
    before="$(digest newer.db)"
    check 4 "schema version 99, newer than this cgbench" run -q --db newer.db -- ./tiny
    check 4 "schema version 99" history --db newer.db
    check 4 "schema version 99" compare --db newer.db r1.json
    [ "$(digest newer.db)" = "$before" ] || variant data-loss "newer.db was changed"
    settle F24
fi
if wanted F25; then
    rm -f foreign.db && sqlite3 foreign.db 'CREATE TABLE x (a)'
    db_refused F25 foreign.db "not a cgbench history database \\(an SQLite database of another program\\)"
fi
make_big_db() {  # make_big_db PATH: a database of 10 runs x 200 results
    local dir="$W/bigdb-files" i
    rm -rf "$dir" "$1"*
    mkdir -p "$dir"
    for i in $(seq 0 9); do
        jq --arg id "big-$i" '.run.id = $id | .benchmarks = [range(200) as $k | .benchmarks[0] | .name = "b\($k)"]' \
            r1.json >"$dir/$i.json"
    done
    "$CGBENCH" import -q --db "$1" "$dir" || exit 1
}
corrupt_middle_page() {
    local pages
    pages=$(($(stat -c %s "$1") / 4096))
    dd if=<(awk 'BEGIN { srand(26); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }') of="$1" \
        bs=4096 seek=$((pages / 2)) count=1 conv=notrunc 2>/dev/null
}
if wanted F26 || wanted F27; then
    make_big_db mid.db
    corrupt_middle_page mid.db
    if wanted F26; then
        rm -f f26.json
        cg run -q --db mid.db --out f26.json -- ./work 5000
        if [ "$RC" = 4 ] && [ ! -e f26.json ] && grep -q damaged <<<"$ERR"; then record F26 good
        elif [ "$RC" = 4 ] && grep -q "cgbench import" <<<"$ERR"; then record F26 good "found when recording; the run is kept"
        elif [ "$RC" = 4 ]; then record F26 weak "found only after measuring: $(first)"
        else record F26 wrong "exit $RC: $(first)"; fi
    fi
    expect F27 0 "" -- report -q --db mid.db --html f27.html
fi
if wanted F28 || wanted F29 || wanted F30; then
    if [ "$ROOT_OK" != 1 ]; then
        for id in F28 F29 F30; do record "$id" skip "needs root (setpriv)"; done
    else
        fresh_db ro.db
        chmod 444 ro.db
        chmod 777 "$W"
        as_nobody "$CGBENCH" run -q --db ro.db -- ./tiny >/dev/null 2>.err; rc1=$?
        as_nobody "$CGBENCH" history --db ro.db >/dev/null 2>>.err; rc2=$?
        if [ "$rc1" = 4 ] && grep -q "is read-only" .err && [ "$rc2" = 0 ]; then record F28 good
        else record F28 wrong "run $rc1, history $rc2: $(head -c 160 .err)"; fi
        mkdir -p rodir && fresh_db rodir/h.db
        id="$("$CGBENCH" history --db rodir/h.db --format json | jq -r '.[0].run')"
        chmod 555 rodir
        as_nobody "$CGBENCH" run -q --db rodir/h.db -- ./tiny >/dev/null 2>.err; rc1=$?
        if [ "$rc1" = 4 ]; then record F29 good; else record F29 wrong "exit $rc1"; fi
        mkdir -p html && chmod 777 html
        for args in "history --db rodir/h.db" "compare --db rodir/h.db $id $id" \
            "report --db rodir/h.db --html html/f30.html"; do
            # shellcheck disable=SC2086
            as_nobody "$CGBENCH" $args >/dev/null 2>.err
            rc=$?
            if [ "$rc" = 0 ]; then variant good ""; else variant wrong "$args -> exit $rc: $(head -c 120 .err)"; fi
        done
        settle F30
        chmod 755 rodir
    fi
fi
hold_lock() {  # hold_lock DB SECONDS: BEGIN EXCLUSIVE in the background for SECONDS
    { echo 'BEGIN EXCLUSIVE;'; sleep "$2"; echo 'COMMIT;'; } | sqlite3 "$1" &
    sleep 0.5
}
if wanted F31 || wanted F32; then
    fresh_db lock.db
    hold_lock lock.db 14
    if wanted F31; then expect F31 4 "still locked by another process after 10 s" -- run -q --db lock.db -- ./tiny; fi
    if wanted F32; then
        check 0 "" history --db lock.db
        check 0 "" report -q --db lock.db --html f32.html
        settle F32
    fi
    wait
fi
if wanted F33; then  # the lock is taken while the run measures, and held 20 s
    fresh_db lock2.db
    rm -f f33.json
    ( sleep 1.5; hold_lock lock2.db 20; wait ) &
    cg run -q --db lock2.db --out f33.json -- ./slowwork 3
    wait
    if [ "$RC" = 0 ] && [ "$(count_runs lock2.db)" = 2 ]; then record F33 good
    elif [ -e f33.json ] && grep -q "cgbench import" <<<"$ERR"; then record F33 good "not recorded, kept for import"
    else record F33 data-loss "exit $RC, runs $(count_runs lock2.db): $(first)"; fi
fi
if wanted F34; then  # a schema-2 database (built here with the schema of that version)
    rm -f v2.db
    sqlite3 v2.db >/dev/null <<'SQL'
PRAGMA journal_mode = WAL;
CREATE TABLE runs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, started TEXT NOT NULL,
    recorded TEXT NOT NULL, git_commit TEXT, git_branch TEXT, git_dirty INTEGER,
    fingerprint_key TEXT NOT NULL, fingerprint TEXT NOT NULL, warnings TEXT NOT NULL,
    shard TEXT, shard_balance TEXT);
CREATE INDEX runs_by_commit ON runs (git_commit, started);
CREATE INDEX runs_by_started ON runs (started);
CREATE TABLE results (run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
    position INTEGER NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL, tool TEXT NOT NULL,
    cost INTEGER, ir INTEGER, i1mr INTEGER, ilmr INTEGER, dr INTEGER, d1mr INTEGER,
    dlmr INTEGER, dw INTEGER, d1mw INTEGER, dlmw INTEGER, bc INTEGER, bcm INTEGER, bi INTEGER,
    bim INTEGER, l1_hits INTEGER, ll_hits INTEGER, ram_hits INTEGER, data TEXT NOT NULL,
    PRIMARY KEY (run, position)) WITHOUT ROWID;
CREATE INDEX results_by_name ON results (name, run, status, cost, ir);
PRAGMA user_version = 2;
PRAGMA application_id = 1667719784;
SQL
    fp="$(jq -c '.run.fingerprint' r1.json)"
    key="$(jq -r '.run.fingerprint.key' r1.json)"
    data="$(jq -c '.benchmarks[0]' r1.json)"
    sqlite3 v2.db "INSERT INTO runs (id, started, recorded, fingerprint_key, fingerprint, warnings) VALUES ('v2run', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '$key', '$fp', '[]');
        INSERT INTO results (run, position, name, status, tool, cost, data) VALUES (1, 0, 'w1', 'ok', 'cachegrind', $(jq '.benchmarks[0].cost' r1.json), '$data');"
    before="$(digest v2.db)"
    cg history --db v2.db w1
    if [ "$RC" != 0 ]; then record F34 wrong "exit $RC: $(first)"
    elif [ "$(digest v2.db)" != "$before" ] || [ "$(sqlite3 v2.db 'PRAGMA user_version')" != 2 ]; then
        record F34 weak "a read command converted the database"
    elif ! "$CGBENCH" --version | grep -q "history database schema"; then record F34 weak "--version does not give the schema"
    else record F34 good; fi
fi
wanted F35 && record F35 skip "by hand: needs an older cgbench built from the repository history (Hardening.F35_SchemaIsCheckedAgainUnderTheWriteLock covers the re-check)"

# --- O: what cgbench writes -----------------------------------------------------------------
fresh_db report.db
expect O01 2 "directory nodir/sub does not exist" -- run -q --no-db --out nodir/sub/r.json -- ./tiny
if wanted O02; then
    if needs_root O02; then
        mkdir -p rodir2 && chmod 555 rodir2 && chmod 777 "$W"
        as_nobody "$CGBENCH" run -q --no-db --out rodir2/r.json -- ./tiny >/dev/null 2>.err
        rc=$?
        if [ "$rc" = 2 ] && grep -q "Permission denied" .err; then record O02 good; else record O02 wrong "exit $rc"; fi
    fi
fi
if wanted O03; then  # one's own link is followed (documented): the target gets the result
    echo precious >precious.txt && rm -f link.json && ln -s precious.txt link.json
    cg run -q --no-db --out link.json -- ./tiny
    if [ "$RC" = 0 ] && [ -L link.json ] && jq -e .schema precious.txt >/dev/null 2>&1; then record O03 good
    else record O03 wrong "exit $RC: $(first)"; fi
fi
if wanted O04; then
    rm -f dangling.json && ln -s nowhere/x.json dangling.json
    check 2 "symbolic link to nothing" run -q --no-db --out dangling.json -- ./tiny
    check 2 "is a directory" run -q --no-db --out adir -- ./tiny
    settle O04
fi
# ns_device ID MAJOR MINOR NAME CHECK: in a private tmpfs DEV with the node DEV/NAME, runs
# bash CHECK (which prints "ok" or what is wrong); security when the node was replaced.
ns_device() {
    local id="$1" major="$2" minor="$3" name="$4" script="$5" res
    wanted "$id" || return 0
    needs_root "$id" || return 0
    res="$(in_ns "$W/ns-$id" 1m "cd '$W' && D='$W/ns-$id' && mknod \$D/$name c $major $minor && chmod 666 \$D/$name && { $script; } ; [ -c \$D/$name ] || echo 'REPLACED'")"
    if grep -q REPLACED <<<"$res"; then record "$id" security "the device node was replaced"
    elif [ "$res" = ok ]; then record "$id" good
    else record "$id" wrong "$(head -c 160 <<<"$res")"; fi
}
ns_device O05 1 3 null '$CG run -q --no-db --out $D/null -- ./tiny && echo ok'
ns_device O06 1 7 full '$CG run -q --no-db --out $D/full -- ./tiny 2>&1 | grep -q "No space left" && echo ok'
if wanted O07; then  # a private /dev holding stdout as the link /dev/stdout -> /proc/self/fd/1
    if needs_root O07; then
        res="$(in_ns /dev 1m "mknod /dev/null c 1 3 && chmod 666 /dev/null && ln -s /proc/self/fd/1 /dev/stdout && cd '$W' && \$CG run -q --no-db --out /dev/stdout -- ./tiny | jq -e .schema >/dev/null && [ -L /dev/stdout ] && echo ok")"
        if [ "$res" = ok ]; then record O07 good; else record O07 security "$(head -c 160 <<<"$res")"; fi
    fi
fi
if wanted O08; then
    if needs_root O08; then
        as_nobody "$CGBENCH" run -q --no-db --out /dev/stdout -- ./tiny 2>.err | jq -e .schema >/dev/null
        if [ "${PIPESTATUS[0]}" = 0 ]; then record O08 good; else record O08 weak "$(head -c 160 .err)"; fi
    fi
fi
ns_device O09 1 7 full '$CG report --db report.db --html $D/full 2>&1 | grep -q "No space left" && echo ok'
ns_device O10 1 3 null '$CG compare -q --no-db --out $D/null r1.json r2.json; $CG export --no-db --format bencher --out $D/null r1.json && $CG merge -q --no-db --out $D/null r1.json && echo ok'
if wanted O11; then
    rm -rf kr
    for n in '../../escape' '/etc/passwd' $'a\nb'; do check 0 "" run -q --no-db --keep-raw kr --name "$n" -- ./tiny; done
    for f in kr/*; do [[ "$f" == kr/* ]] || variant security "$f outside kr"; done
    [ -e kr/_.._.._escape.cachegrind.out ] && [ -e kr/_etc_passwd.cachegrind.out ] || variant wrong "raw files not found"
    settle O11
fi
if wanted O12; then
    rm -f o12.json
    cg run -q --no-db --keep-raw kr --out o12.json --name "$(printf 'L%.0s' $(seq 1 5000))" -- ./tiny
    if [ "$RC" = 0 ] && [ -e o12.json ]; then record O12 good
    elif [ ! -e o12.json ]; then record O12 data-loss "exit $RC, no result: $(first)"
    else record O12 wrong "exit $RC"; fi
fi
if wanted O13; then
    printf '[[bench]]\nname = "%s"\ncommand = ["./tiny"]\n[[bench]]\nname = "b"\ncommand = ["./tiny"]\n[[bench]]\nname = "c"\ncommand = ["./work", "100"]\n' \
        "$(printf 'L%.0s' $(seq 1 300))" >o13.toml
    rm -f o13.db o13.json
    cg run -q --suite o13.toml --keep-raw kr2 --db o13.db --out o13.json -j2
    if [ "$RC" = 0 ] && [ "$(jq '.benchmarks | length' o13.json 2>/dev/null)" = 3 ] && [ "$(count_runs o13.db)" = 1 ]; then record O13 good
    else record O13 data-loss "exit $RC, results lost: $(first)"; fi
fi
if wanted O14; then
    printf '[[bench]]\nname = "x/y"\ncommand = ["./tiny"]\n[[bench]]\nname = "x_y"\ncommand = ["./tiny"]\n' >o14.toml
    expect O14 2 "would share --keep-raw file names" -- run -q --no-db --suite o14.toml --keep-raw kr3
fi
if wanted O15; then  # one name in the result file and in the database
    rm -f o15.db o15.json
    cg run -q --db o15.db --out o15.json --keep-raw kr4 --name $'bad\xff\xfename' -- ./tiny
    json_name="$(jq -r '.benchmarks[0].name' o15.json 2>/dev/null)"
    db_name="$(sqlite3 o15.db 'SELECT name FROM results' 2>/dev/null)"
    if [ "$RC" = 0 ] && [ "$json_name" = "$db_name" ]; then record O15 good
    else record O15 weak "result file and database hold different names"; fi
fi
if wanted O16; then
    rm -rf kr5 && mkdir kr5 && echo victim >victim.txt && echo victim2 >victim2.txt && chmod 644 victim.txt
    ln -s "$W/victim.txt" kr5/tiny.cachegrind.out
    ln -s "$W/victim2.txt" kr5/tiny.valgrind.log
    cg run -q --no-db --keep-raw kr5 -- ./tiny
    if [ "$(cat victim.txt)" != victim ] || [ "$(cat victim2.txt)" != victim2 ] || [ "$(stat -c %a victim.txt)" != 644 ]; then
        record O16 security "written through the planted links"
    elif [ "$RC" = 0 ]; then record O16 good
    else record O16 wrong "exit $RC: $(first)"; fi
fi
# ns_tmpfs ID SIZE SCRIPT: SCRIPT runs with $D a private tmpfs of SIZE; prints ok or a problem
ns_tmpfs() {
    local id="$1" res
    wanted "$id" || return 0
    needs_root "$id" || return 0
    res="$(in_ns "$W/ns-$id" "$2" "cd '$W' && D='$W/ns-$id' && fill() { yes >\"\$D/filler\" 2>/dev/null; true; } && { $3; }")"
    if [ "$res" = ok ]; then record "$id" good; else record "$id" "${res%%:*}" "${res#*:}"; fi
}
ns_tmpfs O17 512k 'yes | head -c 470000 >$D/pad; $CG run -q --no-db --out $D/r.json -- ./tiny && [ -s $D/r.json ] && echo ok || echo "wrong: exit $?"'
ns_tmpfs O18 256k 'fill; out=$($CG run -q --db $D/h.db -- ./tiny 2>&1); rc=$?; left=$(ls $D | grep -v filler); if [ $rc = 4 ] && grep -q "no space left" <<<"$out" && [ -z "$left" ]; then echo ok; else echo "weak: exit $rc, left [$left]: ${out:0:120}"; fi'
ns_tmpfs O19 1m '$CG run -q --db $D/h.db -- ./tiny && fill; $CG run -q --db $D/h.db -- ./tiny 2>/dev/null; rc=$?; rm $D/filler; ok=$(sqlite3 $D/h.db "PRAGMA integrity_check"); if [ $rc = 4 ] && [ "$ok" = ok ]; then echo ok; else echo "wrong: exit $rc, integrity $ok"; fi'
ns_tmpfs O20 1m '$CG run -q --db $D/h.db -- ./tiny && { (sleep 1.5; yes >$D/filler 2>/dev/null) & out=$($CG run -q --db $D/h.db --out o20.json -- ./slowwork 3 2>&1); rc=$?; wait; rm -f $D/filler; if [ $rc = 4 ] && [ -s o20.json ] && grep -q "cgbench import" <<<"$out"; then echo ok; else echo "weak: exit $rc: ${out:0:120}"; fi; }'
ns_tmpfs O21 256k 'fill; $CG run -q --no-db --out $D/r.json -- ./tiny 2>.o21; rc1=$?; $CG report --db report.db --html $D/r.html 2>>.o21; rc2=$?; left=$(ls -A $D | grep -v filler); if [ $rc1 = 4 ] && [ $rc2 = 4 ] && grep -q "No space left" .o21 && [ -z "$left" ]; then echo ok; else echo "wrong: exits $rc1 $rc2, left [$left]"; fi'
ns_tmpfs O22 256k 'fill; out=$($CG run --no-db --keep-raw $D --out o22.json -- ./work 1000 2>&1); rc=$?; if [ $rc = 0 ] && [ -s o22.json ] && grep -q "No space left" <<<"$out"; then echo ok; else echo "weak: exit $rc: ${out:0:120}"; fi'
if wanted O23; then
    if needs_root O23; then
        res="$(in_ns /tmp 64k "yes >/tmp/filler 2>/dev/null; cd '$ROOT' && \$CG run -q --no-db -- '$PROGRAMS/workload' 1000 2>&1; echo \"rc=\$?\"")"
        if grep -q "rc=4" <<<"$res" && grep -q "/tmp is full" <<<"$res"; then record O23 good
        else record O23 weak "$(head -c 160 <<<"$res" | tr '\n' ' ')"; fi
    fi
fi

# --- I: interrupts and kills ----------------------------------------------------------------
printf '[[bench]]\nname = "s%d"\ncommand = ["./slowwork", "6"]\n' 1 2 3 4 | sed 's/^\[\[bench\]\]$/\n&/' >slow.toml
# The Valgrind processes of this script's programs: programs run through a link under
# /tmp/cgbench (so their command lines do not name $W), but in $W or below it.
our_valgrinds() {
    local p cwd exe
    for p in /proc/[0-9]*; do
        cwd="$(readlink "$p/cwd" 2>/dev/null)" || continue
        [[ "$cwd" == "$TMP"* ]] || continue
        exe="$(readlink "$p/exe" 2>/dev/null)" || continue
        [[ "$exe" == *valgrind* || "$exe" == *grind-*-linux ]] && echo "${p#/proc/}"
    done
}
ours_left() { our_valgrinds | wc -l; }  # Valgrind output directories are cleaned by the next run
clean_ours() {
    local pid
    for pid in $(our_valgrinds); do kill -KILL "$pid" 2>/dev/null; done
    true
}
# interrupt ID SIGNAL WANT-RC [group]: signal a suite run 2 s in
interrupt() {
    local id="$1" sig="$2" want="$3" pid rc before
    wanted "$id" || return 0
    fresh_db int.db
    before="$(count_runs int.db)"
    rm -f int.json
    setsid "$CGBENCH" run -q -j2 --suite slow.toml --db int.db --out int.json >/dev/null 2>.err &
    pid=$!
    sleep 2
    if [ "${4:-}" = group ]; then kill "-$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
    wait "$pid"
    rc=$?
    sleep 0.5
    local left
    left="$(ours_left)"
    clean_ours
    if [ "$sig" = KILL ]; then
        if [ "$left" != 0 ]; then record "$id" wrong "$left Valgrind processes or staging directories left (D8, processes)"
        else record "$id" good; fi
    elif [ "$rc" != "$want" ]; then record "$id" wrong "exit $rc, want $want"
    elif [ "$(count_runs int.db)" != "$before" ] || [ -e int.json ]; then record "$id" data-loss "a partial run was written"
    elif [ "$left" != 0 ]; then record "$id" wrong "$left processes or directories left"
    else record "$id" good; fi
}
interrupt I01 INT 130
interrupt I02 TERM 143
interrupt I03 INT 130 group
interrupt I04 HUP 129
interrupt I05 KILL 137
if wanted I06; then
    "$CGBENCH" run -q --no-db --timeout 5 -- ./hang >/dev/null 2>&1 &
    pid=$!
    sleep 2
    kill -KILL "$pid"
    sleep 10
    n=$(ours_left)
    clean_ours
    if [ "$n" = 0 ]; then record I06 good; else record I06 wrong "Valgrind ran on after the timeout (D8, processes)"; fi
fi
if wanted I07; then
    rm -f kill.db*
    for _ in $(seq 1 "$I07_KILLS"); do
        "$CGBENCH" run -q --db kill.db --weights ir -- ./tiny >/dev/null 2>&1 &
        pid=$!
        sleep "0.$((RANDOM % 55 + 5))"
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    clean_ours
    ok="$(sqlite3 kill.db 'PRAGMA integrity_check' 2>/dev/null)"
    orphans="$(sqlite3 kill.db 'SELECT (SELECT COUNT(*) FROM runs WHERE seq NOT IN (SELECT run FROM results)) + (SELECT COUNT(*) FROM results WHERE run NOT IN (SELECT seq FROM runs))' 2>/dev/null)"
    if [ ! -e kill.db ] || { [ "$ok" = ok ] && [ "$orphans" = 0 ]; }; then record I07 good
    else record I07 data-loss "integrity $ok, $orphans partial runs"; fi
fi
if wanted I08; then
    fresh_db lock3.db
    hold_lock lock3.db 12
    "$CGBENCH" run -q --db lock3.db -- ./tiny >/dev/null 2>.err &
    pid=$!
    sleep 1
    t0=$(date +%s)
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    t1=$(date +%s)
    wait
    if [ "$rc" = 130 ] && [ $((t1 - t0)) -le 2 ]; then record I08 good
    else record I08 weak "exit $rc after $((t1 - t0)) s"; fi
fi

# --- K: concurrent writers ------------------------------------------------------------------
if wanted K01; then  # 8 writers into one new database (at most 2 Valgrinds at a time: -j1 each, flock)
    rm -f conc.db*
    for w in $(seq 1 8); do
        (
            for r in $(seq 1 "$K01_RUNS"); do
                flock "$W/.slot$((r % 2))" "$CGBENCH" run -q --db conc.db --weights ir --name "w$w/r$r" -- ./tiny \
                    || echo fail >>k01.fail
            done
        ) &
    done
    wait
    runs="$(count_runs conc.db)"
    ok="$(sqlite3 conc.db 'PRAGMA integrity_check')"
    if [ ! -e k01.fail ] && [ "$runs" = $((8 * K01_RUNS)) ] && [ "$ok" = ok ]; then record K01 good "8 x $K01_RUNS runs"
    else record K01 data-loss "$runs of $((8 * K01_RUNS)) runs, integrity $ok, $(wc -l <k01.fail 2>/dev/null || echo 0) failures"; fi
fi

# --- J: hostile names and the environment -------------------------------------------------
HOSTILE='evil<script>alert(1)</script>|`x`]]><!--[l](http://x) @everyone'
if wanted J01 || wanted J02 || wanted J03 || wanted J04 || wanted J05; then
    rm -f j.db
    "$CGBENCH" run -q --db j.db --name "$HOSTILE" --out j1.json -- ./work 1000 >/dev/null 2>&1
    "$CGBENCH" run -q --db j.db --name "$HOSTILE" --out j2.json -- ./work 1500 >/dev/null 2>&1
fi
if wanted J01; then
    cg compare --no-db --format markdown j1.json j2.json
    # The <details> summary is an HTML block, where Markdown is not parsed: there the name is
    # HTML-escaped, and a | or ` is only text. Everywhere else it must be Markdown-escaped.
    if grep -q '<script' <<<"$OUT" || grep -v '<summary>' <<<"$OUT" | grep -qE '[^\\]\|`x`'; then record J01 security "unescaped name in Markdown"
    elif [ "$RC" = 1 ]; then record J01 good; else record J01 wrong "exit $RC"; fi
fi
if wanted J02; then
    cg compare --no-db --format junit j1.json j2.json
    if xmllint --noout - <<<"$OUT" 2>/dev/null && ! grep -q '<script' <<<"$OUT"; then record J02 good
    else record J02 security "JUnit not well-formed or unescaped"; fi
fi
if wanted J03; then
    cg report -q --db j.db --html j.html
    # The page's own <script> elements are fine; the name's must be escaped.
    if [ "$RC" != 0 ]; then record J03 wrong "exit $RC: $(first)"
    elif grep -q '<script>alert' j.html; then record J03 security "raw <script in the page"
    else record J03 good; fi
fi
if wanted J04; then
    cg run --no-db --name $'x\n::error::pwned' -- ./tiny
    if grep -q $'^::error::pwned' <<<"$OUT$ERR"; then record J04 security "a control character reached the console"
    else record J04 good; fi
fi
if wanted J05; then
    for f in openmetrics bencher github-action-benchmark; do check 0 "" export --no-db j1.json --format "$f"; done
    jq -e . <<<"$("$CGBENCH" export --no-db j1.json --format bencher)" >/dev/null || variant wrong "bencher output is not JSON"
    settle J05
fi
if wanted J06; then  # D16 (processes): LD_PRELOAD reaches Valgrind's launcher
    cg run -q --no-db --env LD_PRELOAD=/nonexistent.so --out j06.json -- ./showenv
    if [ "$RC" = 2 ] || jq -e '.run.fingerprint | tostring | contains("LD_PRELOAD")' j06.json >/dev/null 2>&1; then record J06 good
    else record J06 weak "allowed, not recorded (D16, processes)"; fi
fi
if wanted J07; then
    cg run -q --no-db --env GLIBC_TUNABLES=glibc.cpu.hwcaps=AVX2 --out j07.json -- ./tiny
    if [ "$RC" = 2 ] || jq -e '.run.fingerprint | tostring | contains("GLIBC_TUNABLES")' j07.json >/dev/null 2>&1; then record J07 good
    else record J07 weak "overrides the baseline unrecorded (D16, processes)"; fi
fi
expect J08 0 "" -- run -q --no-db --env LANG=xx --env TZ=Mars --env HOME= -- ./tiny
if wanted J09; then
    check 2 "cannot set CGBENCH_ENV_PAD" run -q --no-db --env CGBENCH_ENV_PAD=1 -- ./tiny
    check 2 "invalid --env" run -q --no-db --env 1X=2 -- ./tiny
    check 2 "invalid --env" run -q --no-db --env =x -- ./tiny
    settle J09
fi
expect J10 0 "over the 8192-byte budget" -- run --no-db --env "BIG=$(printf 'x%.0s' $(seq 1 102400))" -- ./tiny
if wanted J11; then  # D10 (processes): VALGRIND_OPTS changes what is measured
    cg run -q --no-db --env VALGRIND_OPTS=--trace-children=yes -- ./pyscript
    if [ "$RC" = 2 ]; then record J11 good; else record J11 weak "exit $RC: VALGRIND_OPTS taken (D10, processes)"; fi
fi
if wanted J12; then  # D10 (processes): a ~/.valgrindrc must not change the outcome
    mkdir -p home12 && rm -f home12/.valgrindrc j12a.json j12b.json
    HOME="$W/home12" cg run -q --no-db --weights ir --out j12a.json -- ./pyscript
    rc_a=$RC
    printf -- '--trace-children=yes\n' >home12/.valgrindrc
    HOME="$W/home12" cg run -q --no-db --weights ir --out j12b.json -- ./pyscript
    if [ "$rc_a" = "$RC" ] && [ "$(jq -c .benchmarks[0].events j12a.json 2>/dev/null)" = "$(jq -c .benchmarks[0].events j12b.json 2>/dev/null)" ]; then
        record J12 good
    else record J12 wrong "~/.valgrindrc changed the outcome: exit $rc_a, then $RC (D10, processes)"; fi
fi

# --- M: everything else --------------------------------------------------------------------
if wanted M01; then  # `| true`: the reader is gone when the report is printed
    rm -f m01.db m01.json
    "$CGBENCH" run --db m01.db --out m01.json -- ./work 1000 2>.err | true
    rc=${PIPESTATUS[0]}
    if [ -e m01.json ] && [ "$(count_runs m01.db)" = 1 ] && [ "$rc" = 4 ]; then record M01 good
    elif [ -e m01.json ] && [ "$(count_runs m01.db)" = 1 ]; then record M01 weak "saved, exit $rc"
    else record M01 data-loss "exit $rc, result file or history row lost"; fi
fi
ns_device M02 1 7 full 'rm -f m02.db m02.json; $CG run --db m02.db --out m02.json -- ./work 1000 >$D/full 2>.m02; rc=$?; [ $rc = 4 ] && [ -e m02.json ] && grep -q "No space left" .m02 && echo ok || echo "exit $rc"'
if wanted M03; then
    rm -f m03.db
    "$CGBENCH" run --db m03.db -- ./work 1000 >&- 2>.err
    rc=$?
    if [ "$(count_runs m03.db)" = 1 ] && { [ "$rc" = 0 ] || { [ "$rc" = 4 ] && grep -q "standard output" .err; }; }; then record M03 good
    else record M03 wrong "exit $rc, runs $(count_runs m03.db)"; fi
fi
ns_device M04 1 7 full '$CG export r1.json --no-db --format bencher >$D/full 2>/dev/null; rc=$?; [ $rc = 4 ] && echo ok || echo "exit $rc"'
if wanted M05; then
    env -u HOME "$CGBENCH" run -q --no-db -- ./tiny >/dev/null 2>&1; variant "$([ $? = 0 ] && echo good || echo wrong)" "HOME unset"
    env -u PATH "$CGBENCH" run -q --no-db -- ./tiny >/dev/null 2>&1; variant "$([ $? = 0 ] && echo good || echo wrong)" "PATH unset"
    settle M05
fi
if wanted M06; then PATH= cg run -q --no-db -- ./tiny; judge M06 4 "not found on PATH"; fi
if wanted M07; then TMPDIR=/nonexistent/dir cg run -q --no-db -- ./tiny; judge M07 0 ""; fi
if wanted M08; then CGBENCH_VALGRIND=/nonexistent/valgrind cg run -q --no-db -- ./tiny; judge M08 4 "is not an executable file"; fi
if wanted M09; then CGBENCH_VALGRIND=/bin/true cg run -q --no-db -- ./tiny; judge M09 4 "is not Valgrind"; fi
if wanted M10; then
    mkdir -p gone
    (cd gone && rmdir "$W/gone" && "$CGBENCH" run -q --no-db -- "$W/tiny" >/dev/null 2>"$W/.err")
    rc=$?
    if [ "$rc" = 2 ] && grep -q "no longer exists" .err; then record M10 good
    else record M10 weak "exit $rc: $(head -c 120 .err)"; fi
fi
if wanted M11; then
    check 2 "working directory /nonexistent" run -q --no-db --cwd /nonexistent -- ./tiny
    mkdir -p "dir with space é" && cp tiny "dir with space é/prög"
    check 0 "" run -q --no-db -- "./dir with space é/prög"
    settle M11
fi
if wanted M12; then
    if needs_root M12; then
        mkdir -p rocwd && chmod 555 rocwd
        (cd rocwd && as_nobody "$CGBENCH" run -q -- "$W/tiny" >/dev/null 2>"$W/.err")
        rc=$?
        if [ "$rc" = 4 ] && grep -q "cannot create the directory .cgbench" .err; then record M12 good
        else record M12 wrong "exit $rc"; fi
    fi
fi
if wanted M13; then  # a checkout, and no git on PATH: the run says it has no commit
    mkdir -p m13 && git -C m13 init -q
    (cd m13 && PATH=/nonexistent CGBENCH_VALGRIND=/usr/bin/valgrind.bin "$CGBENCH" run -q --no-db --out m13.json -- "$W/tiny" >/dev/null 2>&1)
    if jq -e '.run.warnings | tostring | contains("git is not on PATH")' m13/m13.json >/dev/null 2>&1; then record M13 good
    else record M13 weak "recorded without a commit, no warning"; fi
fi
if wanted M14; then
    rm -rf m14 && mkdir m14 && cp work m14/ && cd m14 || exit 1
    git init -q -b main && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m one
    "$CGBENCH" run -q --db h.db --name w -- ./work 1000 >/dev/null 2>&1
    git checkout -q -b pr && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m two
    git checkout -q --detach HEAD  # a pull request's detached checkout: the base is commit one
    "$CGBENCH" run -q --db h.db --name w -- ./work 1000 >/dev/null 2>&1
    check 0 "" compare --db h.db
    rm -rf .git
    check 2 "merge base|git" compare --db h.db
    cd "$W" || exit 1
    settle M14
fi
if wanted M15; then
    printf '[[bench]]\nname = "%s"\ncommand = ["./tiny"]\n' "$(printf 'a%.0s' $(seq 1 50000))" >m15.toml
    for f in '^(a|b)*$' '^a+$'; do
        cg config show --suite m15.toml --filter "$f"
        if [ "$RC" -ge 128 ]; then variant crash "--filter $f killed by signal $((RC - 128))"
        elif [ "$RC" = 0 ]; then variant good ""; else variant wrong "exit $RC"; fi
    done
    settle M15
fi
if wanted M16; then
    t0=$(date +%s)
    cg run -q --no-db --timeout 3 --gbench ./fakegb
    t1=$(date +%s)
    if [ "$RC" = 2 ] && [ $((t1 - t0)) -le 10 ]; then record M16 good
    elif [ "$RC" = 2 ]; then record M16 weak "--timeout ignored: $((t1 - t0)) s"
    else record M16 wrong "exit $RC"; fi
fi
if wanted M17; then
    check 2 "is not a Google Benchmark binary" run -q --no-db --gbench ./tiny
    check 2 "matches no benchmark" run -q --no-db --gbench "$EXAMPLES/gbench_varint" --filter NoSuch
    settle M17
fi
if wanted M18; then
    check 3 "never ended it" run -q --no-db --regions -- "$PROGRAMS/regions" unended 100
    check 3 "regions must nest" run -q --no-db --regions -- "$PROGRAMS/regions" overlap 100
    settle M18
fi
expect M19 3 "holds a newline" -- run -q --no-db --regions -- "$PROGRAMS/regions" newline 100
expect M20 0 "" -- run -q --no-db --regions -- ./reg3000
if wanted M21; then
    jq '.benchmarks = [range(10000) as $k | .benchmarks[0] | .name = "b\($k)"]' r1.json >big10k.json
    rm -f m21.db
    check 0 "" merge -q --db m21.db big10k.json --out m21.json
    check 0 "" compare -q --no-db big10k.json m21.json
    check 0 "" report -q --db m21.db --html m21.html
    check 0 "" history --db m21.db b5000
    settle M21
fi
if wanted M22; then
    "$CGBENCH" run -q --no-db --weights ir --name w1 --out m22ir.json -- ./work 1000 >/dev/null 2>&1
    check 2 "measured differently" compare --no-db r1.json m22ir.json
    cg compare --no-db --force r1.json m22ir.json
    [ "$RC" = 0 ] || [ "$RC" = 1 ] && variant good "" || variant wrong "--force: exit $RC"
    "$CGBENCH" run -q --no-db --suite suite.toml --shard 1/2 --out shard1.json >/dev/null 2>&1
    check 2 "shard 2/2 is missing" merge --no-db shard1.json
    settle M22
fi
ns_device M23 1 3 null 'out=$($CG run -q --db $D/null -- ./tiny 2>&1); rc=$?; [ $rc = 4 ] && grep -q "not a regular file" <<<"$out" && [ ! -e $D/null-journal ] && echo ok || echo "exit $rc: $out"'
if wanted M24; then
    check 2 "name cannot be empty" run -q --no-db --name '' -- ./tiny
    check 0 "" run -q --no-db --name '   ' -- ./tiny
    settle M24
fi
if wanted M25; then  # D2 (CI): a stale head.json must not pass the gate
    rm -rf m25 && mkdir m25 && cd m25 || exit 1
    printf '#include <stdlib.h>\nint main(int c, char** v) { volatile long a = 0; for (long i = 0; i < atol(v[1]); ++i) a += i; return 0; }\n' >prog.c
    printf '#!/bin/sh\ncc -O1 -o prog prog.c\n' >build.sh && chmod +x build.sh
    git init -q -b main && git add prog.c build.sh && git -c user.name=a -c user.email=a@b commit -q -m one
    git checkout -q -b pr
    CGBENCH="$CGBENCH" PATH="$(dirname "$CGBENCH"):$PATH" "$AROOT/scripts/cgbench-pr.sh" --base main --build ./build.sh --command './prog 1000' >/dev/null 2>&1
    sed -i 's/return 0;/return 7;/' prog.c
    CGBENCH="$CGBENCH" PATH="$(dirname "$CGBENCH"):$PATH" "$AROOT/scripts/cgbench-pr.sh" --base main --build ./build.sh --command './prog 1000' >/dev/null 2>.err
    rc=$?
    cd "$W" || exit 1
    if [ "$rc" != 0 ]; then record M25 good; else record M25 wrong "the gate passed a failing HEAD (D2, CI)"; fi
fi

# --- the second audit (reliability-audit-2.md), cases 2:ID ---------------------------------
# shellcheck source=audit_replay_2.sh
source "$ROOT/bench/audit_replay_2.sh"

# --- the table ----------------------------------------------------------------------------
bench_machine "each case once"
echo "audits:   ../shared/reports/reliability-audit.md (165 cases), reliability-audit-2.md (86, as 2:ID)"
echo
printf '%-6s %-10s %s\n' case verdict note
declare -A COUNT COUNT1 COUNT2
for id in "${IDS[@]}"; do
    v="${VERDICT[$id]}"
    printf '%-6s %-10s %s\n' "$id" "$v" "${NOTE[$id]}"
    COUNT[$v]=$(( ${COUNT[$v]:-0} + 1 ))
    if [[ "$id" == 2:* ]]; then COUNT2[$v]=$(( ${COUNT2[$v]:-0} + 1 )); else COUNT1[$v]=$(( ${COUNT1[$v]:-0} + 1 )); fi
done
echo
totals() {  # totals LABEL ARRAY-NAME
    local -n counts="$2"
    local n=0 v
    for v in "${!counts[@]}"; do n=$((n + counts[$v])); done
    printf '%-9s %3d cases: ' "$1" "$n"
    for v in good weak wrong data-loss crash security skip; do printf '%s %d  ' "$v" "${counts[$v]:-0}"; done
    echo
}
totals "audit 1" COUNT1
totals "audit 2" COUNT2
totals "all" COUNT
