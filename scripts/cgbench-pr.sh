#!/usr/bin/env bash
# cgbench-pr: the pull-request gate, kept under its old name for existing workflows. It is
# `cgbench pr` (same options, files and exit codes; `cgbench pr --help`), run in place of this
# script so that signals reach it directly. cgbench is taken from $CGBENCH, else next to this
# script, else the build directory of the checkout this script belongs to, else PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${CGBENCH:-}" ]; then
  cgbench="$CGBENCH"
elif [ -x "$here/cgbench" ]; then
  cgbench="$here/cgbench"
elif [ -x "$here/../build/src/cgbench" ]; then
  cgbench="$here/../build/src/cgbench"
elif command -v cgbench >/dev/null; then
  cgbench="$(command -v cgbench)"
else
  echo "cgbench-pr: error: cgbench not found (set CGBENCH=PATH, put it on PATH, or run scripts/build.sh)" >&2
  exit 4
fi
exec "$cgbench" pr "$@"
