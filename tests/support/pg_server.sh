#!/usr/bin/env bash
# A PostgreSQL server of the test suite's own, from Debian's `postgresql` package:
#   pg_server.sh start DIR   initdb in DIR/data, listening on 127.0.0.1 at a free port, with
#                            password authentication; writes its URL (password included) to
#                            DIR/url, or one line saying why it cannot start to DIR/skip
#   pg_server.sh stop DIR    stops it (fast shutdown) and removes DIR
# As root the server runs as the unprivileged user `nobody` (initdb refuses root); nothing
# outside DIR is touched. Always exits 0 for `start`: the tests skip, saying why, on DIR/skip.
set -uo pipefail
cmd="${1:-}"
dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: pg_server.sh start|stop DIR" >&2; exit 2; }

bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as_server=()
if [ "$(id -u)" = 0 ]; then
  as_server=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi

stop() {
  if [ -f "$dir/data/postmaster.pid" ] && [ -n "$bindir" ]; then
    "${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 ||
      "${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
  fi
  rm -rf "$dir"
}

skip() {
  echo "$*" >"$dir/skip"
  echo "pg_server.sh: $*" >&2
  exit 0
}

case "$cmd" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: pg_server.sh start|stop DIR" >&2; exit 2 ;;
esac

stop
mkdir -p "$dir"
chmod 755 "$dir"
[ -n "$bindir" ] || skip "PostgreSQL is not installed (scripts/install-deps.sh --tests installs it)"
mkdir -p "$dir/data"
password="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$password" >"$dir/pwfile"
if [ "${#as_server[@]}" -gt 0 ]; then
  chown nobody:nogroup "$dir/data" "$dir/pwfile"
  # The server's user must reach DIR: every directory above it must let others pass.
  "${as_server[@]}" test -x "$dir/data" ||
    skip "the server's user (nobody) cannot reach $dir; run the tests from a build directory others can enter"
fi
chmod 700 "$dir/data"
"${as_server[@]}" "$bindir/initdb" -D "$dir/data" -U cgbench --pwfile="$dir/pwfile" \
  --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --no-locale \
  >"$dir/initdb.log" 2>&1 || skip "initdb failed (log: $dir/initdb.log)"
rm -f "$dir/pwfile"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=120" \
  start >"$dir/pg_ctl.log" 2>&1 || skip "the server did not start (log: $dir/data/server.log)"
echo "postgresql://cgbench:$password@127.0.0.1:$port/postgres" >"$dir/url"
chmod 600 "$dir/url"
echo "pg_server.sh: PostgreSQL $("$bindir/postgres" -V | awk '{print $3}') on 127.0.0.1:$port" >&2
