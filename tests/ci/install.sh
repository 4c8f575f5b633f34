#!/usr/bin/env bash
# Installs the CI test clients pinned in package-lock.json into tests/ci/node_modules (never
# globally), once per lock file: concurrent callers wait for each other. Exits 77 (ctest's
# skip code) with a message naming the cause when npm is missing or the npm registry cannot
# be reached; any other failure exits 1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stamp="$here/node_modules/.cgbench-lock-sha256"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "SKIPPED: node/npm not installed (scripts/install-deps.sh installs Debian's nodejs npm)" >&2
  exit 77
fi
exec 9>"$here/.install.lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
log="$(mktemp)"
if ! (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
  if grep -qiE "ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network|proxy" "$log"; then
    echo "SKIPPED: the npm registry is unreachable, CI clients not installed:" >&2
    tail -n 5 "$log" >&2
    rm -f "$log"
    exit 77
  fi
  cat "$log" >&2
  rm -f "$log"
  echo "install.sh: npm ci failed in $here (see above)" >&2
  exit 1
fi
rm -f "$log"
echo "$want" >"$stamp"
