#!/usr/bin/env bash
# Usage: in-root.sh ROOT [--bind HOSTDIR:ROOTDIR]... [--env KEY=VALUE]... -- COMMAND [ARGS...]
#
# Runs COMMAND inside the root file system ROOT (made by debian-root.sh), in a private mount
# and pid namespace whose root ROOT becomes (pivot_root, not chroot: the kernel refuses a new
# user namespace to a chrooted process, so cgbench's sandbox would not start inside): the root gets its own /proc, a private /dev holding only
# the usual character devices (never the host's) and its own pseudo-terminal instance, a
# fresh /tmp, and the host's resolver configuration for apt. --bind mounts a host directory
# into the root (read-write; created in the root when missing). Every process COMMAND leaves
# behind dies with the namespace. The environment inside is fixed: PATH, HOME=/root,
# LANG=C.UTF-8, plus each --env.
set -euo pipefail
root="${1:?usage: in-root.sh ROOT [--bind HOST:DIR]... [--env K=V]... -- COMMAND...}"
shift
binds=()
envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
while [ $# -gt 0 ]; do
  case "$1" in
    --bind) binds+=("$2"); shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "in-root.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "in-root.sh: no command given" >&2; exit 2; }
[ -d "$root/etc" ] || { echo "in-root.sh: $root is not a root file system" >&2; exit 2; }
root="$(cd "$root" && pwd)"

# The part that runs inside the new namespaces: mounts, then pivot_root. Its arguments are the
# root, the number of binds, the binds, the variables (KEY=VALUE), the command.
inner='
set -eu
root=$1; shift
mount --make-rprivate /
# The root a mount point of its own, so that "/" inside is one too: a test that makes its
# own private mount namespace there (mount / MS_PRIVATE) is refused otherwise.
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=755,nosuid dev "$root/dev"
for d in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  name=${d%%:*}; rest=${d#*:}
  mknod -m 666 "$root/dev/$name" c "${rest%%:*}" "${rest#*:}"
done
mkdir -p "$root/dev/pts" "$root/dev/shm"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
# A private pseudo-terminal instance (apt and dpkg open one for their logs).
if mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts" 2>/dev/null; then
  ln -s pts/ptmx "$root/dev/ptmx"
fi
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mount -t tmpfs -o mode=1777 tmp "$root/tmp"
if [ -f /etc/resolv.conf ]; then
  rm -f "$root/etc/resolv.conf"
  cat /etc/resolv.conf >"$root/etc/resolv.conf"
fi
n=$1; shift
while [ "$n" -gt 0 ]; do
  host=${1%%:*}; dir=${1#*:}; shift; n=$((n - 1))
  mkdir -p "$root$dir"
  mount --bind "$host" "$root$dir"
done
# ROOT becomes "/" of the namespace; the tree of the host, parked on a directory of the
# fresh /tmp of the root, is detached, so nothing of it stays reachable inside.
mkdir "$root/tmp/.host-root"
cd "$root"
pivot_root . tmp/.host-root
cd /
umount -l /tmp/.host-root
rmdir /tmp/.host-root
# The variables, then the command: env -i sets the former and runs the latter.
exec /usr/bin/env -i "$@"
'
exec unshare --mount --pid --fork --kill-child -- \
  sh -c "$inner" in-root "$root" "${#binds[@]}" "${binds[@]}" "${envs[@]}" "$@"
