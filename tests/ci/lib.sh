# shellcheck shell=bash
# Shared by the CI tests (sourced): installing the clients, scratch directories, checks.
# shellcheck disable=SC2034  # ci_bin and build are used by the tests that source this

ci_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ci_bin="$ci_root/tests/ci/node_modules/.bin"

# Installs the npm clients; exits 77 (skip, loudly) when npm or its registry is unreachable.
ci_install_clients() {
  local code=0
  "$ci_root/tests/ci/install.sh" || code=$?
  if [ "$code" -ne 0 ]; then
    [ "$code" -eq 77 ] && echo "SKIPPED: $(basename "$0"): the CI clients could not be installed" >&2
    exit "$code"
  fi
}

# The test's one argument, the build directory: sets `build` to its absolute path.
ci_build_arg() { # "$@"
  [ $# -eq 1 ] || { echo "usage: $(basename "$0") BUILD_DIR" >&2; exit 2; }
  build="$(cd "$1" && pwd)"
}

# A fresh directory under BUILD/tests/ci-scratch.
ci_scratch() { # BUILD NAME
  local dir="$1/tests/ci-scratch/$2"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$dir"
}

# Installs the build (cgbench, cgbench-pr, ...) into PREFIX as scripts/ci-install-cgbench.sh
# leaves it (its scripts and the stamp naming this machine and source): what a CI cache
# restores on the machine that built it.
ci_install_build() { # BUILD PREFIX
  cmake --install "$1" --prefix "$2" >/dev/null
  cp "$ci_root/scripts/ci-install-cgbench.sh" "$ci_root/scripts/install-deps.sh" "$2/share/cgbench/"
  "$ci_root/scripts/ci-install-cgbench.sh" --key "$ci_root" >"$2/.cgbench-install"
}

# The throw-away repository (tests/ci/make-repo.sh) with a bare "origin" holding main.
ci_make_repo() { # DIR regress|same
  "$ci_root/tests/ci/make-repo.sh" "$1/work" "$2" >/dev/null
  git init -q --bare -b main "$1/origin.git"
  git -C "$1/work" remote add origin "$1/origin.git"
  git -C "$1/work" push -q origin main
  git -C "$1/work" fetch -q origin
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

expect_contains() { # FILE TEXT
  grep -qF -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$1 lacks '$2'"; }
}

expect_not_contains() { # FILE TEXT
  if grep -qF -- "$2" "$1"; then
    echo "--- $1:" >&2
    cat "$1" >&2
    fail "$1 contains '$2'"
  fi
}

# Benchmark NAME is listed as unchanged in the Markdown report FILE, in no other way.
expect_unchanged() { # FILE NAME
  local rows
  rows="$(grep -F "| $2 |" "$1" || true)"
  [ -n "$rows" ] || { cat "$1" >&2; fail "$1 does not list $2"; }
  if grep -qvE '\| unchanged \|$' <<<"$rows"; then
    cat "$1" >&2
    fail "$1 lists $2 as changed: $rows"
  fi
}

# The change of NAME's cost from OUT_DIR/base.json to OUT_DIR/head.json, as cgbench prints it
# ("+4.98%"), computed here from the costs in the files (the counts, and so the figure, move
# with the toolchain and the sandbox; every report must show this one).
cost_change() { # OUT_DIR NAME
  python3 - "$1" "$2" <<'PY'
import json, sys
out, name = sys.argv[1], sys.argv[2]
def cost(side):
    with open(f"{out}/{side}.json") as f:
        return next(b["cost"] for b in json.load(f)["benchmarks"] if b["name"] == name)
base, head = cost("base"), cost("head")
print(f"{(head - base) / base * 100:+.2f}%")
PY
}
