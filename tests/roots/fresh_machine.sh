# shellcheck shell=bash
# Sourced: on_fresh_machine DIR BASE COMMAND... runs COMMAND while DIR/root, an overlay of the
# cached base root BASE (a fresh machine), is mounted in a private mount namespace; the
# overlay vanishes with the namespace (DIR/overlay is its scratch). The packages installed on
# the machine by then are listed in DIR/packages.txt. COMMAND runs on the host; it enters the
# machine with tests/roots/in-root.sh DIR/root.
on_fresh_machine() { # DIR BASE COMMAND...
  local dir="$1" base="$2"
  shift 2
  rm -rf "$dir/overlay"
  mkdir -p "$dir/overlay/upper" "$dir/overlay/work" "$dir/root"
  unshare --mount -- bash -c '
    set -e
    in_root=$1 base=$2 dir=$3
    shift 3
    mount --make-rprivate /
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$dir/overlay/upper,workdir=$dir/overlay/work" "$dir/root"
    code=0
    "$@" || code=$?
    "$in_root" "$dir/root" -- dpkg-query -W -f "\${Package}\n" | sort >"$dir/packages.txt"
    exit "$code"' fresh "$(dirname "${BASH_SOURCE[0]}")/in-root.sh" "$base" "$dir" "$@"
}
