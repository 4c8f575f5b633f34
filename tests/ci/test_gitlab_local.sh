#!/usr/bin/env bash
# Runs the jobs of ci/gitlab/cgbench.gitlab-ci.yml with gitlab-ci-local (shell executor)
# against the throw-away repository, included as a user would (`include: local`):
#   regress: merge-request pipeline (2 shards + report): the report job fails, the JUnit
#            report has a <failure> for the regressed benchmark, metrics.txt is written
#   same:    the same pipeline passes
#   history: the default-branch job records HEAD in .cgbench/history.db
# cgbench comes from this build installed into CGBENCH_PREFIX, as the job's cache would
# restore it.
# Usage: test_gitlab_local.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: test_gitlab_local.sh BUILD_DIR" >&2; exit 2; }
build="$(cd "$1" && pwd)"
ci_install_clients
command -v rsync >/dev/null || fail "gitlab-ci-local needs rsync (scripts/install-deps.sh installs it)"
scratch="$(ci_scratch "$build" gitlab-local)"
ci_install_build "$build" "$scratch/prefix"

prepare() { # CASE -> repository with the template included and committed
  local dir="$scratch/$1"
  ci_make_repo "$dir" "$2"
  cp "$ci_root/ci/gitlab/cgbench.gitlab-ci.yml" "$dir/work/"
  cat >"$dir/work/.gitlab-ci.yml" <<YML
include:
  - local: cgbench.gitlab-ci.yml
variables:
  CGBENCH_BUILD: ./build.sh
  CGBENCH_PREFIX: "$scratch/prefix"
YML
  git -C "$dir/work" add -A
  git -C "$dir/work" commit -q -m "CI"
  git -C "$dir/work" remote set-head origin main
}

gcl() { # DIR ARGS... (exit code of gitlab-ci-local; output in DIR/log)
  local dir="$1"
  shift
  (cd "$dir/work" && HOME="$dir" "$ci_bin/gitlab-ci-local" --no-color --shell-isolation \
      --ignore-predefined-vars CI_PIPELINE_SOURCE,CI_COMMIT_BRANCH "$@") >"$dir/log" 2>&1
}

merge_request() { # CASE EXPECTED_EXIT
  local dir="$scratch/$1" code=0
  prepare "$1" "$1"
  gcl "$dir" --needs --job cgbench:mr-report \
    --variable CI_PIPELINE_SOURCE=merge_request_event \
    --variable "CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git -C "$dir/work" rev-parse origin/main)" || code=$?
  [ "$code" -eq "$2" ] || { cat "$dir/log" >&2; fail "$1: gitlab-ci-local exited $code, expected $2"; }
  expect_contains "$dir/log" "PASS  cgbench:mr: [1/2]"
  expect_contains "$dir/log" "PASS  cgbench:mr: [2/2]"
  for f in base-1 base-2 head-1 head-2 base head; do
    [ -f "$dir/work/cgbench-pr/$f.json" ] || fail "$1: no cgbench-pr/$f.json"
  done
  expect_contains "$dir/work/cgbench-pr/metrics.txt" 'cgbench_cost{benchmark="sum/60000"}'
  expect_contains "$dir/work/cgbench-pr/metrics.txt" "# EOF"
}

merge_request regress 1
expect_contains "$scratch/regress/log" "FAIL  cgbench:mr-report"
expect_contains "$scratch/regress/work/cgbench-pr/report.xml" '<testcase classname="cgbench.compare" name="sum/60000"'
[ "$(grep -c '<failure' "$scratch/regress/work/cgbench-pr/report.xml")" -eq 1 ] ||
  fail "regress: the JUnit report should hold exactly one <failure>"
expect_contains "$scratch/regress/work/cgbench-pr/summary.txt" "FAIL  1 of 2 benchmarks got more expensive (worst: +5.00% sum/60000)"

merge_request same 0
expect_contains "$scratch/same/log" "PASS  cgbench:mr-report"
expect_not_contains "$scratch/same/work/cgbench-pr/report.xml" "<failure"

# Default branch: the history job on main measures HEAD and records it.
dir="$scratch/history"
prepare history same
git -C "$dir/work" checkout -q main
git -C "$dir/work" merge -q --ff-only pr
gcl "$dir" --job cgbench:history --variable CI_PIPELINE_SOURCE=push \
  --variable CI_COMMIT_BRANCH=main --variable CI_DEFAULT_BRANCH=main ||
  { cat "$dir/log" >&2; fail "history: gitlab-ci-local failed"; }
expect_contains "$dir/log" "PASS  cgbench:history"
"$build/src/cgbench" history --db "$dir/work/.cgbench/history.db" sum/60000 >"$dir/history.txt"
expect_contains "$dir/history.txt" "sum/60000: 1 result"
expect_contains "$dir/work/cgbench-pr/metrics.txt" 'cgbench_instructions{benchmark="copy/20000"}'
echo "GitLab template: a regression fails the pipeline with a JUnit failure, an unchanged head passes, history is recorded"
