#!/usr/bin/env bash
# in-debian13.sh — runs a bench/ script inside the Debian 13 root of the second-platform lane:
# bench/in-platform.sh trixie SCRIPT [ARGS...] (see there).
exec "$(dirname "$0")/in-platform.sh" trixie "$@"
