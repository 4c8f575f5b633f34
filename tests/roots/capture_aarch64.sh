#!/usr/bin/env bash
# Captures what glibc and Valgrind do on AArch64, for the unit tests of the aarch64 CPU
# baseline (tests/data/aarch64/, read on any host): an arm64 Debian root of SUITE (default
# trixie) run on this x86-64 machine under qemu-user, through binfmt_misc.
#
#   1. the root: `debootstrap --foreign --arch=arm64` (the first stage, on the host), then the
#      second stage inside the root; cached in BUILD/tests/roots/arm64-SUITE with a stamp;
#   2. captures, into OUT, for three CPUs qemu emulates: `ld.so --list-diagnostics` natively
#      and under the root's Valgrind (its tool none, which runs under qemu-user), each without
#      and with the portable tunables (glibc.cpu.name=generic); `ld.so --list-tunables`; and
#      Cachegrind's log on /usr/bin/true (it stops with an assertion under qemu). Each file
#      keeps only the lines cgbench reads (and the per-processor lines it must ignore), never
#      the environment or auxv of the capturing machine. OUT/README.md lists what ran.
#
# binfmt_misc is used only in a private user namespace (Linux 6.7 and later give each user
# namespace its own binfmt_misc): the interpreter is registered there, never on the machine.
# qemu-user-static is unpacked from its Debian package into the build tree (apt-get download),
# not installed. Needs root, debootstrap, unshare and a mirror (tests/roots/mirror.sh);
# exits 77 naming what is missing.
# Usage: capture_aarch64.sh BUILD_DIR OUT_DIR [SUITE]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:?usage: capture_aarch64.sh BUILD_DIR OUT_DIR [SUITE]}" && pwd)"
out="${2:?usage: capture_aarch64.sh BUILD_DIR OUT_DIR [SUITE]}"
suite="${3:-trixie}"
roots="$build/tests/roots"
root="$roots/arm64-$suite"
qemu_dir="$roots/qemu-user-static"
skip() { echo "SKIPPED: no arm64 root here: $*" >&2; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "it needs root"
for tool in debootstrap unshare chroot dpkg-deb; do
  command -v "$tool" >/dev/null || skip "$tool is not installed"
done
# shellcheck source=mirror.sh
source "$here/mirror.sh"
mirror="$(debian_mirror)" || skip "no Debian mirror in this machine's apt configuration"

# qemu-aarch64-static from Debian's package, unpacked (not installed) into the build tree.
qemu="$qemu_dir/usr/bin/qemu-aarch64-static"
if ! [ -x "$qemu" ]; then
  mkdir -p "$qemu_dir"
  (cd "$qemu_dir" && apt-get download -qq qemu-user-static >/dev/null 2>&1) ||
    skip "apt-get download qemu-user-static failed"
  dpkg-deb -x "$qemu_dir"/qemu-user-static_*.deb "$qemu_dir"
fi

# Runs SCRIPT (sh) with QEMU and ROOT set, in a new user namespace whose ids 0..65535 are the
# machine's own (written from outside: no newuidmap needed) and a new mount namespace, with
# aarch64 ELF files registered to qemu in that namespace's own binfmt_misc.
in_arm64_namespace() { # SCRIPT
  local fifo pid code=0
  fifo="$(mktemp -u)"
  mkfifo "$fifo"
  QEMU="$qemu" ROOT="$root.new" unshare --user --mount --fork -- sh -c '
    read -r _ <"$1"
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || exit 78
    printf ":qemu-aarch64:M::\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:%s:F\n" \
      "$QEMU" >/proc/sys/fs/binfmt_misc/register || exit 78
    shift
    exec sh -c "$1"' ns "$fifo" "$1" &
  pid=$!
  sleep 0.5
  echo "0 0 65536" >"/proc/$pid/uid_map"
  echo "0 0 65536" >"/proc/$pid/gid_map"
  echo go >"$fifo"
  wait "$pid" || code=$?
  rm -f "$fifo"
  [ "$code" -ne 78 ] || skip "this kernel gives user namespaces no binfmt_misc of their own (Linux 6.7 and later do)"
  return "$code"
}

want="$suite arm64 $(sha256sum "$0" | cut -c1-16)"
if ! [ -f "$root/.cgbench-root" ] || [ "$(cat "$root/.cgbench-root")" != "$want" ]; then
  rm -rf "$root" "$root.new"
  echo "capture_aarch64: debootstrap arm64 $suite (first stage)" >&2
  debootstrap --foreign --arch=arm64 --variant=minbase --include=valgrind,libc6-dbg \
    "$suite" "$root.new" "$mirror" >"$root.log" 2>&1 ||
    { tail -n 20 "$root.log" >&2; echo "FAIL: debootstrap --foreign" >&2; exit 1; }
  echo "capture_aarch64: second stage under qemu (slow: every package's scripts emulated)" >&2
  # container=lxc: debootstrap skips its mknod check (a user namespace may not make
  # devices; the first stage made them).
  in_arm64_namespace 'container=lxc chroot "$ROOT" /debootstrap/debootstrap --second-stage' \
    >>"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; echo "FAIL: second stage" >&2; exit 1; }
  echo "$want" >"$root.new/.cgbench-root"
  mv "$root.new" "$root"
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The lines cgbench reads, and the per-processor ones it must leave out.
keep='^(version\.|dl_platform=|dl_hwcap=|dl_hwcap2=|uname\.machine=|aarch64\.)'
ldso="$root/usr/lib/ld-linux-aarch64.so.1"
vglib="$root/usr/libexec/valgrind"
# For each CPU qemu emulates: glibc's own selection, and the one it makes under Valgrind
# (its tool "none", run by qemu directly: Valgrind loads the program itself), each without
# and with the portable tunables.
for cpu in max neoverse-n1 a64fx; do
  for t in native generic; do
    tunables=()
    [ "$t" = generic ] && tunables=(GLIBC_TUNABLES=glibc.cpu.name=generic)
    env -i QEMU_CPU="$cpu" "${tunables[@]}" "$qemu" -L "$root" "$ldso" --list-diagnostics |
      grep -E "$keep" >"$out/diagnostics-$cpu-$t.txt"
    env -i QEMU_CPU="$cpu" VALGRIND_LIB="$vglib" VALGRIND_LAUNCHER="$root/usr/bin/valgrind.bin" \
      "${tunables[@]}" "$qemu" -L "$root" "$vglib/none-arm64-linux" -q "$ldso" --list-diagnostics \
      </dev/null | grep -E "$keep" >"$out/valgrind-$cpu-$t.txt"
  done
done
"$qemu" -L "$root" "$ldso" --list-tunables >"$out/tunables.txt"
# Cachegrind under qemu-user: its log (it stops with an assertion there, see README.md).
env -i QEMU_CPU=neoverse-n1 VALGRIND_LIB="$vglib" VALGRIND_LAUNCHER="$root/usr/bin/valgrind.bin" \
  "$qemu" -L "$root" "$vglib/cachegrind-arm64-linux" --cache-sim=yes --I1=32768,8,64 \
  --D1=32768,8,64 --LL=8388608,16,64 --cachegrind-out-file=/dev/null \
  --log-file="$out/cachegrind-under-qemu.log" "$root/usr/bin/true" </dev/null || true
sed -i "s|$root|ROOT|g" "$out/cachegrind-under-qemu.log"
echo "capture_aarch64: $suite arm64 under $("$qemu" --version | head -n 1): $(ls "$out" | wc -l) files in $out"
