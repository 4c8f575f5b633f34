#!/usr/bin/env bash
# The CI integrations on fresh machines: the GitHub action's steps (MODE action, through
# tests/ci/run-action.mjs) or the GitLab template's merge-request jobs (MODE gitlab, the job
# scripts from tests/ci/gitlab-job-script.mjs) run chrooted in clean Debian 12 roots that
# hold only a minimal system and git, as a hosted runner's or a `debian:12` job's would:
#   machine A, cache miss: the install step builds cgbench from this source (build packages
#     only, progress printed), the job measures the unchanged pull request and passes; the
#     installed cgbench becomes the cache
#   machine B, cache hit: a second fresh root restores what machine A built; the install step
#     only adds the run-time packages, and the job finds the regression of the regressing
#     pull request (exit 1), proving the cached cgbench starts on a machine that did not
#     build it
# What machine A built is kept in the build tree (BUILD/tests/roots/cache-MODE, or
# BUILT_CACHE), keyed by a hash of cgbench's source: a later run for the same source reuses it and runs machine B
# only; a source change (and every fresh build tree, as in CI) runs both.
# Each machine is an overlay of one cached base root (tests/roots/debian-root.sh, in the
# build tree), thrown away with the mount namespace it lives in. Downloaded packages are
# kept in the build tree (BUILD/tests/roots/apt-archives-MODE, or APT_ARCHIVES) between runs.
# The last line gives the install step's wall time on both machines and the cached
# executable's size (bench/ci_install.sh reports them).
# Usage: test_ci_fresh_root.sh BUILD_DIR action|gitlab
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tests/ci/lib.sh
source "$here/../ci/lib.sh"
[ $# -eq 2 ] && { [ "$2" = action ] || [ "$2" = gitlab ]; } ||
  { echo "usage: test_ci_fresh_root.sh BUILD_DIR action|gitlab" >&2; exit 2; }
build="$(cd "$1" && pwd)"
mode="$2"
if [ "${CGBENCH_FRESH_ROOTS:-0}" != 1 ]; then
  echo "SKIPPED: the fresh-root lanes build cgbench from scratch twice (minutes of CPU);" \
    "run them with CGBENCH_FRESH_ROOTS=1 ctest -L roots"
  exit 77
fi
roots="$build/tests/roots"
base="$roots/bookworm-runner"
# git, and a C compiler for the project being measured (a hosted runner has both).
"$here/debian-root.sh" bookworm "$base" git gcc libc6-dev
ci_install_clients
scratch="$(ci_scratch "$build" "fresh-root-$mode")"
# What machine A built, for this source: BUILD/tests/roots/cache-MODE/SOURCE_HASH.
source_hash="$("$ci_root/scripts/ci-install-cgbench.sh" --key "$ci_root")"
source_hash="${source_hash##*-}"
cache="${BUILT_CACHE:-$roots/cache-$mode}"
built="$cache/$source_hash"
if [ -e "$built/done" ]; then
  echo "machine A (cache miss): skipped, what it built for this source is in $built (remove it to run it again)"
else
  rm -rf "$cache"
fi
# One package cache per lane: apt locks it, and the two lanes may run side by side.
archives="${APT_ARCHIVES:-$roots/apt-archives-$mode}"
mkdir -p "$archives/partial"

# shellcheck source=fresh_machine.sh
source "$here/fresh_machine.sh"

# The binds every step gets: this source tree and the scratch directory at their own paths,
# and the package cache.
binds=(--bind "$ci_root:$ci_root" --bind "$scratch:$scratch"
       --bind "$archives:/var/cache/apt/archives")

# How long the install step took, from run-action's log line.
install_seconds() { # LOG
  sed -n 's/.*Install cgbench and Valgrind: done in \([0-9.]*\) s$/\1/p' "$1"
}

check_cold_install() { # LOG ROOT_PACKAGES
  expect_contains "$1" "ci-install-cgbench: [3/4] compiling"
  grep -qE '^  \[ *[0-9]+%\] ' "$1" || fail "the cold build printed no progress lines"
  for pkg in clang libgtest-dev libbenchmark-dev nodejs chromium; do
    if grep -qx "$pkg" "$2"; then fail "the install step installed the test-only package $pkg"; fi
  done
}

check_warm_install() { # LOG ROOT_PACKAGES
  expect_not_contains "$1" "ci-install-cgbench: [3/4] compiling"
  grep -qx valgrind "$2" || fail "the install step did not install valgrind"
  for pkg in g++ cmake libfmt-dev libspdlog-dev; do
    if grep -qx "$pkg" "$2"; then fail "the cache hit installed the build package $pkg"; fi
  done
}

# The cached executable needs no shared library at all, and measures as the build tree's
# dynamically linked cgbench does: on this machine both read glibc's selection through the
# system's loader, so their fingerprints have one key.
check_static() { # CGBENCH
  if readelf -d "$1" | grep -q NEEDED; then
    readelf -d "$1" >&2
    fail "$1 needs shared libraries"
  fi
  local key_of='s/.*"key": *"\([0-9a-f]*\)".*/\1/p'
  "$1" run -q --no-db --out "$scratch/static.json" -- /bin/true ||
    fail "the static cgbench could not measure /bin/true"
  "$build/src/cgbench" run -q --no-db --out "$scratch/dynamic.json" -- /bin/true ||
    fail "the build's cgbench could not measure /bin/true"
  expect_not_contains "$scratch/static.json" "could not read glibc's CPU feature selection"
  [ "$(sed -n "$key_of" "$scratch/static.json")" = "$(sed -n "$key_of" "$scratch/dynamic.json")" ] ||
    fail "the static and the dynamic cgbench give different fingerprint keys on one machine"
}

action_machine() { # NAME CASE EXPECTED_EXIT
  local name="$1" dir="$scratch/$1" code=0
  mkdir -p "$dir/home" "$dir/temp"
  ci_make_repo "$dir" "$2"
  echo '{"pull_request": {"number": 42, "head": {"sha": "0"}}}' >"$dir/event.json"
  : >"$dir/summary.md"
  on_fresh_machine "$scratch/$name" "$base" env HOME="$dir/home" RUNNER_TEMP="$dir/temp" \
    GITHUB_WORKSPACE="$dir/work" GITHUB_BASE_REF=main GITHUB_EVENT_NAME=pull_request \
    GITHUB_EVENT_PATH="$dir/event.json" GITHUB_STEP_SUMMARY="$dir/summary.md" \
    node "$ci_root/tests/ci/run-action.mjs" "$ci_root/ci/github" \
      --input build=./build.sh --cache-store "$scratch/cache-store" \
      --in-root "$dir/root" "${binds[@]}" >"$dir/log" 2>&1 || code=$?
  if [ "$code" -ne "$3" ]; then
    cat "$dir/log" >&2
    fail "$name: the action exited $code, expected $3"
  fi
}

# The merge-request pipeline of the template on machine NAME: job cgbench:mr (unsharded),
# then cgbench:mr-report, each as GitLab's shell would run it (gitlab-job-script.mjs), in
# the project's directory. CACHE: a .cgbench-install/ to restore first. The log says how
# long each job's before_script (the install) took.
gitlab_machine() { # NAME CASE EXPECTED_REPORT_EXIT SOURCE_URL [CACHE]
  local name="$1" dir="$scratch/$1" code=0 job
  ci_make_repo "$dir" "$2"
  if [ -n "${5:-}" ]; then cp -a "$5" "$dir/work/.cgbench-install"; fi
  local vars=(CI_PROJECT_DIR="$dir/work" CI_PIPELINE_SOURCE=merge_request_event
              CI_MERGE_REQUEST_IID=1 CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main
              CI_MERGE_REQUEST_DIFF_BASE_SHA="$(git -C "$dir/work" merge-base HEAD origin/main)"
              CGBENCH_BUILD=./build.sh CGBENCH_SOURCE_URL="$4" CGBENCH_SOURCE_REF=main)
  for job in cgbench:mr cgbench:mr-report; do
    local script="$dir/${job#cgbench:}.sh" args=()
    for v in "${vars[@]}"; do args+=(--variable "$v"); done
    node "$ci_root/tests/ci/gitlab-job-script.mjs" "$ci_root/ci/gitlab/cgbench.gitlab-ci.yml" \
      "$job" --timed "${args[@]}" >"$script"
  done
  on_fresh_machine "$scratch/$name" "$base" bash -c '
    root=$1 dir=$2 in_root=$3
    shift 3
    for job in mr mr-report; do
      code=0
      "$in_root" "$root" "$@" --env HOME=/root -- /usr/bin/env -C "$dir/work" \
        bash -eo pipefail "$dir/$job.sh" || code=$?
      echo "job cgbench:$job exited $code"
      [ "$job" = mr-report ] || [ "$code" -eq 0 ] || exit "$code"
    done
    exit "$code"' machine "$dir/root" "$dir" "$here/in-root.sh" "${binds[@]}" >"$dir/log" 2>&1 || code=$?
  if [ "$code" -ne "$3" ]; then
    cat "$dir/log" >&2
    fail "$name: the merge-request pipeline ended with $code, expected $3"
  fi
}

if [ "$mode" = action ]; then
  if [ ! -e "$built/done" ]; then
    action_machine machine-a same 0
    expect_contains "$scratch/machine-a/log" "cache miss for key cgbench-debian-12-"
    expect_contains "$scratch/machine-a/log" "post: cache saved for key"
    check_cold_install "$scratch/machine-a/log" "$scratch/machine-a/packages.txt"
    expect_contains "$scratch/machine-a/summary.md" "No benchmark got more expensive"
    mkdir -p "$built"
    cp -a "$scratch/cache-store" "$built/store"
    install_seconds "$scratch/machine-a/log" >"$built/cold-seconds"
    touch "$built/done"
  fi
  cp -a "$built/store" "$scratch/cache-store"
  action_machine machine-b regress 1
  expect_contains "$scratch/machine-b/log" "cache hit for key cgbench-debian-12-"
  change="$(cost_change "$scratch/machine-b/work/cgbench-pr" sum/60000)"
  expect_contains "$scratch/machine-b/summary.md" "**REGRESSION**: cost $change"
  expect_contains "$scratch/machine-b/log" "REGRESSION  cost $change"
  check_warm_install "$scratch/machine-b/log" "$scratch/machine-b/packages.txt"
  cached="$(echo "$built"/store/cgbench-*/bin/cgbench)"
  check_static "$cached"
  cold="$(cat "$built/cold-seconds")"
  warm="$(install_seconds "$scratch/machine-b/log")"
else
  # The template clones cgbench from CGBENCH_SOURCE_URL on a miss: this source tree as it is,
  # committed into a bare repository on branch main.
  src="$scratch/cgbench-src"
  mkdir -p "$src"
  (cd "$ci_root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$src")
  git -C "$src" init -q -b main
  git -C "$src" add -A
  git -C "$src" -c user.name=test -c user.email=test@example.invalid commit -q -m source
  git clone -q --bare "$src" "$scratch/cgbench.git"
  if [ ! -e "$built/done" ]; then
    gitlab_machine a same 0 "file://$scratch/cgbench.git"
    expect_contains "$scratch/a/log" "ci-install-cgbench: [1/4] installing the build packages"
    check_cold_install "$scratch/a/log" "$scratch/a/packages.txt"
    expect_contains "$scratch/a/log" "PASS  No benchmark got more expensive"
    mkdir -p "$built"
    cp -a "$scratch/a/work/.cgbench-install" "$built/cgbench-install"
    sed -n 's/^before_script done in \([0-9]*\) s$/\1/p' "$scratch/a/log" | head -n 1 >"$built/cold-seconds"
    touch "$built/done"
  fi
  # Machine B restores what A built (GitLab's cache of .cgbench-install/); the source URL
  # leads nowhere, so nothing can be rebuilt.
  gitlab_machine b regress 1 "file://$scratch/nowhere.git" "$built/cgbench-install"
  expect_contains "$scratch/b/log" "ci-install-cgbench: using the cached"
  change="$(cost_change "$scratch/b/work/cgbench-pr" sum/60000)"
  expect_contains "$scratch/b/log" "REGRESSION  cost $change"
  check_warm_install "$scratch/b/log" "$scratch/b/packages.txt"
  cached="$built/cgbench-install/bin/cgbench"
  check_static "$cached"
  cold="$(cat "$built/cold-seconds")"
  warm="$(sed -n 's/^before_script done in \([0-9]*\) s$/\1/p' "$scratch/b/log" | head -n 1)"
fi
echo "fresh roots ($mode): cache miss install ${cold:-?} s, cache hit install ${warm:-?} s; cached cgbench $(stat -c %s "$cached") bytes, static"
