#!/usr/bin/env bash
# prepare.sh — readies the real-program suite (bench/programs/cgbench.toml): installs the
# Debian packages that hold its programs (only those missing; apt-get, as root) and writes
# its inputs into bench/programs/data (make_inputs.py, deterministic; compressed copies for
# the decompressors). Idempotent; nothing is downloaded but Debian packages.
#
# Usage: bench/programs/prepare.sh [--list]   (--list: print the packages, install nothing)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
packages=(gzip bzip2 xz-utils zstd sqlite3 python3-minimal perl-base lua5.4 jq gcc bc
          coreutils sed mawk)
programs=(gzip bzip2 xz zstd sqlite3 python3 perl lua5.4 jq gcc bc sort sed mawk)
if [ "${1:-}" = --list ]; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

missing=()
for i in "${!programs[@]}"; do
    [ -x "/usr/bin/${programs[$i]}" ] || missing+=("${packages[$i]}")
done
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "prepare.sh: missing packages: ${missing[*]} (run as root, or apt-get install them)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
        { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi

data="$here/data"
/usr/bin/python3 "$here/make_inputs.py" "$data"
/usr/bin/gzip -9 -n -c "$data/corpus.txt" >"$data/corpus.txt.gz"
/usr/bin/xz -2 -T1 -c "$data/corpus.txt" >"$data/corpus.txt.xz"
echo "prepare.sh: inputs in $data; suite: $here/cgbench.toml"
