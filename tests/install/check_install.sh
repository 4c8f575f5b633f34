#!/usr/bin/env bash
# check_install.sh BUILD_DIR WORK_DIR cmake|pkgconfig
# Installs the build into WORK_DIR/prefix with `cmake --install`, then builds the user
# project in consumer/ against it, with find_package(cgbench) or with
# `pkg-config --cflags cgbench`, and runs the programs.
set -euo pipefail
build="$1" work="$2" mode="$3"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -f "$work/prefix/include/cgbench/cgbench.h"
test -f "$work/prefix/share/cgbench/cgbench.toml"
case "$mode" in
cmake)
    cmake -S "$here/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
        >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
    cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
    "$work/build/consumer_c"
    "$work/build/consumer_cpp"
    ;;
pkgconfig)
    flags="$(PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" pkg-config --cflags cgbench)"
    case "$flags" in *"$work/prefix/"*) ;; *) echo "unexpected flags: $flags"; exit 1 ;; esac
    # shellcheck disable=SC2086  # the flags are words
    cc -std=c99 -Wall -Wextra -pedantic -Werror $flags "$here/consumer/main.c" -o "$work/consumer_c"
    # shellcheck disable=SC2086
    c++ -std=c++11 -Wall -Wextra -pedantic -Werror $flags "$here/consumer/main.cpp" \
        -o "$work/consumer_cpp"
    "$work/consumer_c"
    "$work/consumer_cpp"
    ;;
*)
    echo "usage: check_install.sh BUILD_DIR WORK_DIR cmake|pkgconfig" >&2
    exit 2
    ;;
esac
