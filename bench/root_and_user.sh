#!/usr/bin/env bash
# root_and_user.sh — do root and an ordinary user get the same counts? Each cgbench binary
# (AFTER, and BEFORE when given) measures a few programs as root and as a user, each in a
# directory of its own (its own checkout, as in CI), and prints both counts (Ir) and their
# difference. The user is made in a private mount namespace over copies of /etc/passwd and
# /etc/group (the machine's files are not touched).
#   python   python3 -c pass
#   stat     python3 -c "import os; os.stat('/usr/bin/env')" (a file of the machine's root)
#   sqlite   sqlite3 :memory: "select 1;"
#   bash     bash -c 'x=1; echo $x'
# Usage (as root): bench/root_and_user.sh [AFTER [BEFORE]]; AFTER defaults to
# ./build/src/cgbench, BEFORE to $BEFORE.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
AFTER="${1:-${BUILD_DIR:-$ROOT/build}/src/cgbench}"
BEFORE="${2:-${BEFORE:-}}"
[[ $(id -u) -eq 0 ]] || { echo "root_and_user.sh: needs root (it makes a user in a private mount namespace)" >&2; exit 2; }

if [[ ${1:-} != --inside ]]; then
    exec unshare -m --propagation private "$0" --inside "$AFTER" "$BEFORE"
fi
TMP="$(mktemp -d /tmp/cgbench-root-user.XXXXXX)"
trap 'umount /etc/passwd /etc/group 2>/dev/null || true; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
# The binaries copied where the user may run them.
cp "$2" "$TMP/cgbench-after"; AFTER="$TMP/cgbench-after"; BEFORE=""
[[ -n $3 ]] && { cp "$3" "$TMP/cgbench-before"; BEFORE="$TMP/cgbench-before"; }
UID_USER=4390
cp /etc/passwd "$TMP/passwd"; echo "cgb-bench:x:$UID_USER:$UID_USER::/nonexistent:/bin/sh" >>"$TMP/passwd"
cp /etc/group "$TMP/group"; echo "cgb-bench:x:$UID_USER:" >>"$TMP/group"
chmod 644 "$TMP/passwd" "$TMP/group"
mount --bind "$TMP/passwd" /etc/passwd
mount --bind "$TMP/group" /etc/group
mkdir -p "$TMP/root-project" "$TMP/user-project"
chown "$UID_USER:$UID_USER" "$TMP/user-project"

# ir CGBENCH USER PROGRAM: the program's Ir
ir() {
    local cg=$1 who=$2 cmd=() cwd="$TMP/root-project" as=()
    case $3 in
        python) cmd=(/usr/bin/python3 -c pass) ;;
        stat) cmd=(/usr/bin/python3 -c "import os; os.stat('/usr/bin/env')") ;;
        sqlite) cmd=(/usr/bin/sqlite3 :memory: "select 1;") ;;
        bash) cmd=(/bin/bash -c 'x=1; echo $x') ;;
    esac
    [[ $who == user ]] && { cwd="$TMP/user-project"; as=(setpriv --reuid "$UID_USER" --regid "$UID_USER" --clear-groups); }
    (cd "$cwd" && "${as[@]}" env -i PATH=/usr/bin:/bin "$cg" run --no-db -q --format json -- "${cmd[@]}" 2>"$TMP/err") |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["benchmarks"][0]["events"]["Ir"])' ||
        { echo "error: $who $3: $(tail -1 "$TMP/err")" >&2; echo "err"; }
}

table() {  # CGBENCH LABEL
    echo "## $2 ($1)"
    printf '%-10s%14s%14s%10s\n' program root user "user-root"
    for p in python stat sqlite bash; do
        local r u; r=$(ir "$1" root "$p"); u=$(ir "$1" user "$p")
        if [[ $r =~ ^[0-9]+$ && $u =~ ^[0-9]+$ ]]; then
            printf '%-10s%14s%14s%+10d\n' "$p" "$r" "$u" $((u - r))
        else printf '%-10s%14s%14s%10s\n' "$p" "$r" "$u" "-"; fi
    done
    echo
}

echo "valgrind: $(valgrind --version 2>/dev/null || true); kernel $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
[[ -n $BEFORE ]] && table "$BEFORE" before
table "$AFTER" after
