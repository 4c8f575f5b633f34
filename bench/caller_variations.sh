#!/usr/bin/env bash
# caller_variations.sh — does anything about the caller still move the counts? Two cgbench
# binaries side by side (BEFORE and AFTER, e.g. an older build and this one), each measuring
# small workloads under every caller variation of the measurement studies' tables: cwd, extra
# environment, locale, time zone, PATH length, the program's path and directory name, the
# invoking path, another user, the caller's GLIBC_TUNABLES, a script run from a copy of its
# directory at a longer path, a 4-digit pid instead of a 5-digit one, and all at once.
#
# Prints, per binary, the Δcost of each variation against the base caller, per program:
#   c       tests/programs/workload 2000          (C)
#   cpp     examples/varint 20000 0               (C++, libstdc++)
#   sqlite  sqlite3 :memory: < 2,000-row script
#   gzip    gzip -c of a 64 kB text
#   python  python3 tests/programs/pydict.py (3,000 keys)
#           (the interpreter is not copied: "-" on the path rows)
#   bash    /bin/bash loop.sh, a pure-bash string loop (bash keeps PWD among its variables)
#   pid     tests/programs/print_pid 3 (prints its pid and its children's)
# "0" means identical counts. Each cell is one run (cgbench's counts repeat exactly).
#
# Usage: bench/caller_variations.sh [AFTER [BEFORE]]
#   AFTER defaults to ./build/src/cgbench, BEFORE to $BEFORE (no BEFORE: only AFTER is shown).
#   Needs root for the other-user row (runuser to `nobody`) and the pid row (a pid namespace
#   whose next pid is 1000); skips them otherwise. ONLY=REGEX measures the base row and the
#   variations whose name matches.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
AFTER="${1:-${BUILD_DIR:-$ROOT/build}/src/cgbench}"
BEFORE="${2:-${BEFORE:-}}"
BUILD="${BUILD_DIR:-$ROOT/build}"
TMP="$(mktemp -d /tmp/cgbench-variations.XXXXXX)"
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT

# The workloads, readable by every user.
mkdir -p "$TMP/w" "$TMP/base/bin"
cp "$BUILD/tests/programs/workload" "$BUILD/examples/varint" /usr/bin/sqlite3 /usr/bin/gzip \
    "$TMP/base/bin/"
cp "$ROOT/tests/programs/pydict.py" "$TMP/w/"
cp "$BUILD/tests/programs/print_pid" "$TMP/base/bin/"
cat >"$TMP/w/loop.sh" <<'SH'
s=''
i=0
while [ $i -lt 2000 ]; do s="$s$i"; i=$((i+1)); done
echo ${#s}
SH
python3 - "$TMP/w" <<'PY'
import sys
d = sys.argv[1]
words = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua").split()
with open(f"{d}/gz.txt", "w") as f:
    x, n = 1, 0
    while n < 65536:
        x = (x * 1103515245 + 12345) & 0x7fffffff
        w = words[x % len(words)] + (" " if x % 11 else "\n"); f.write(w); n += len(w)
with open(f"{d}/script.sql", "w") as f:
    f.write("CREATE TABLE t(a INTEGER, b TEXT);\n"
            "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i<2000)\n"
            "INSERT INTO t SELECT i, printf('k%05d', (i*7919)%2000) FROM c;\n"
            "CREATE INDEX tb ON t(b);\n"
            "SELECT count(*), sum(a) FROM t GROUP BY substr(b,1,3) ORDER BY 1 LIMIT 3;\n"
            "SELECT count(*) FROM t x JOIN t y ON x.b = y.b;\n")
PY
chmod -R a+rX "$TMP"
LONG="$TMP/$(printf 'p%.0s' {1..60})/$(printf 'q%.0s' {1..60})"
mkdir -p "$LONG/bin" "$LONG/cmake-build-release"
cp "$TMP/base/bin/"* "$LONG/bin/"
cp "$TMP/base/bin/"* "$LONG/cmake-build-release/"
DEEP="$TMP/$(printf 'd%.0s' {1..120})/$(printf 'e%.0s' {1..120})"
mkdir -p "$DEEP"
COPY="$TMP/$(printf 'c%.0s' {1..70})/checkout/w"  # the scripts' directory, copied further down
mkdir -p "$(dirname "$COPY")"
cp -r "$TMP/w" "$COPY"
LONGPATH="/usr/local/bin:/usr/bin:/bin:$(printf '/opt/some/long/tool/dir%.0s:' {1..45})/x"
chmod -R a+rX "$TMP"

# measure CGBENCH VARIATION PROGRAM: prints the cost
measure() {
    local cg=$1 var=$2 prog=$3 dir="$TMP/base/bin" cwd="$TMP/w" env=() user=() cmd=() pidns=()
    env=(HOME=/root "PATH=/usr/local/bin:/usr/bin:/bin" USER=root LOGNAME=root SHELL=/bin/bash
         TERM=dumb)
    case $var in
        cwd-deep) cwd="$DEEP" ;;
        env-5k) env+=("BIG=$(printf 'x%.0s' {1..5000})") ;;
        hashseed) env+=(PYTHONHASHSEED=7) ;;
        lang-de) env+=(LANG=de_DE.UTF-8) ;;
        lang-c) env+=(LANG=C.UTF-8 LC_ALL=C) ;;
        tz) env+=(TZ=America/New_York) ;;
        path-long) env[1]="PATH=$LONGPATH" ;;
        path-150-bin) dir="$LONG/bin" ;;
        path-150-cmake) dir="$LONG/cmake-build-release" ;;
        relative) ;;
        user) user=(runuser -u nobody --); env[0]=HOME=/nonexistent-home; env[2]=USER=nobody
              env[3]=LOGNAME=nobody ;;
        tunables) env+=(GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2_Usable,-AVX2,-AVX,-ERMS) ;;
        script-copy) [[ $prog != python && $prog != bash ]] && { echo "-"; return; }
                     cwd="$COPY" ;;
        pid-4digit) pidns=(unshare --pid --fork sh -c 'echo 998 >/proc/sys/kernel/ns_last_pid; exec "$@"' -) ;;
        all) cwd="$DEEP"; dir="$LONG/cmake-build-release"; user=(runuser -u nobody --)
             env=(HOME=/nonexistent-home "PATH=$LONGPATH" USER=nobody LOGNAME=nobody
                  SHELL=/bin/bash TERM=dumb "BIG=$(printf 'x%.0s' {1..5000})" PYTHONHASHSEED=7
                  LANG=de_DE.UTF-8 TZ=America/New_York
                  GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2_Usable,-AVX2,-AVX,-ERMS) ;;
    esac
    [[ (${#user[@]} -gt 0 || ${#pidns[@]} -gt 0) && $(id -u) -ne 0 ]] && { echo "skip"; return; }
    case $prog in
        c) cmd=("$dir/workload" 2000) ;;
        cpp) cmd=("$dir/varint" 20000 0) ;;
        sqlite) cmd=(--stdin "$TMP/w/script.sql" -- "$dir/sqlite3" :memory:) ;;
        gzip) cmd=("$dir/gzip" -c "$TMP/w/gz.txt") ;;
        python) [[ $dir != "$TMP/base/bin" ]] && { echo "-"; return; }
                cmd=(/usr/bin/python3 "$TMP/w/pydict.py") ;;
        bash) [[ $dir != "$TMP/base/bin" ]] && { echo "-"; return; }
              cmd=(/bin/bash "$TMP/w/loop.sh") ;;
        pid) cmd=("$dir/print_pid" 3) ;;
    esac
    # A script by the path relative to its directory (from a copy of it, or where it is).
    if [[ ($var == relative || $var == script-copy) && ($prog == python || $prog == bash) ]]; then
        cmd[1]="$(basename "${cmd[1]}")"
    fi
    if [[ $var == relative && $prog != python && $prog != bash ]]; then
        cwd="$dir"
        if [[ $prog == sqlite ]]; then cmd=(--stdin "$TMP/w/script.sql" -- ./sqlite3 :memory:)
        else cmd[0]="./$(basename "${cmd[0]}")"; fi
    fi
    [[ ${cmd[0]} != --stdin ]] && cmd=(-- "${cmd[@]}")
    (cd "$cwd" && "${pidns[@]}" "${user[@]}" env -i PWD="$cwd" "${env[@]}" "$cg" run --no-db -q --warmup 1 \
        --format json "${cmd[@]}" 2>"$TMP/err") |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["benchmarks"][0]["cost"])' ||
        { echo "error: $var $prog: $(tail -1 "$TMP/err")" >&2; echo "err"; }
}

VARIATIONS=(base cwd-deep env-5k hashseed lang-de lang-c tz path-long path-150-bin
            path-150-cmake relative script-copy user pid-4digit tunables all)
PROGRAMS=(c cpp sqlite gzip python bash pid)

table() {  # CGBENCH LABEL
    local cg=$1
    echo "## $2 ($cg)"
    printf '%-16s' variation; printf '%12s' "${PROGRAMS[@]}"; echo
    declare -A base
    for var in "${VARIATIONS[@]}"; do
        [[ $var != base && -n ${ONLY:-} && ! $var =~ ^(${ONLY})$ ]] && continue
        printf '%-16s' "$var"
        for p in "${PROGRAMS[@]}"; do
            local c; c=$(measure "$cg" "$var" "$p")
            if [[ $var == base ]]; then base[$p]=$c; printf '%12s' "$c"
            elif [[ $c =~ ^[0-9]+$ && ${base[$p]} =~ ^[0-9]+$ ]]; then
                printf '%+12d' $((c - base[$p]))
            else printf '%12s' "$c"; fi
        done
        echo
    done
    echo
}

echo "valgrind: $(valgrind --version 2>/dev/null || true); base row: cost, other rows: Δcost"
echo
[[ -n $BEFORE ]] && table "$BEFORE" "before"
table "$AFTER" "after"
