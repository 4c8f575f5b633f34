#!/usr/bin/env bash
# Runs the steps of ci/github/action.yml here (run-action.mjs) against the throw-away
# repository, as a pull_request job would: GITHUB_BASE_REF=main, a PR event, the step
# summary and outputs files. The actions/cache step is emulated as a hit holding this build
# installed (so cgbench is not rebuilt); actions/upload-artifact is not run.
#   regress: the summary holds the table, regressed=true, the step fails (exit 1)
#   same:    regressed=false, every step passes
#   a failing build command: the step fails with cgbench-pr's exit code (3), no verdict
#   a push (no base): HEAD is measured and recorded in the history database
# Usage: test_action_local.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: test_action_local.sh BUILD_DIR" >&2; exit 2; }
build="$(cd "$1" && pwd)"
ci_install_clients
scratch="$(ci_scratch "$build" action-local)"
ci_install_build "$build" "$scratch/cache"

run_case() { # CASE EXPECTED_EXIT
  local dir="$scratch/$1"
  mkdir -p "$dir/home" "$dir/temp"
  ci_make_repo "$dir" "$1"
  echo '{"pull_request": {"number": 42}}' >"$dir/event.json"
  : >"$dir/summary.md"
  local code=0
  (cd "$dir/work" &&
    env HOME="$dir/home" RUNNER_TEMP="$dir/temp" GITHUB_WORKSPACE="$dir/work" \
      GITHUB_BASE_REF=main GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH="$dir/event.json" \
      GITHUB_STEP_SUMMARY="$dir/summary.md" GITHUB_REPOSITORY=example/project \
      node "$ci_root/tests/ci/run-action.mjs" "$ci_root/ci/github" \
      --input build=./build.sh --input threshold=cost=2% \
      --restore-cache "$scratch/cache" --outputs "$dir/outputs.json") >"$dir/log" 2>&1 || code=$?
  if [ "$code" -ne "$2" ]; then
    cat "$dir/log" >&2
    fail "$1: the action exited $code, expected $2"
  fi
  expect_contains "$dir/log" "cache hit emulated"
  expect_contains "$dir/log" "not run locally (uses: actions/upload-artifact@v4)"
  expect_contains "$dir/summary.md" "| benchmark | base cost | head cost |"
  expect_contains "$dir/work/cgbench-pr/comment.md" "<!-- cgbench-comment -->"
  [ "$(cat "$dir/work/cgbench-pr/pr-number")" = 42 ] || fail "$1: pr-number is not 42"
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const k of ["report-path", "result-path", "junit-path", "comment-path"])
      if (!require("fs").existsSync(o[k])) { console.error(`output ${k}=${o[k]} is not a file`); process.exit(1); }
    if (o.regressed !== process.argv[2]) { console.error(`regressed=${o.regressed}`); process.exit(1); }
  ' "$dir/outputs.json" "$3" || fail "$1: outputs $(cat "$dir/outputs.json")"
}

run_case regress 1 true
expect_contains "$scratch/regress/summary.md" "cgbench ❌: 1 of 2 benchmarks got more expensive"
expect_contains "$scratch/regress/summary.md" "| sum/60000 |"
expect_contains "$scratch/regress/summary.md" "**REGRESSION**: cost +5.00%"
expect_contains "$scratch/regress/log" "Fail on a regression: failed with exit code 1"

run_case same 0 false
expect_contains "$scratch/same/summary.md" "No benchmark got more expensive"
expect_contains "$scratch/same/log" "Fail on a regression: skipped"
expect_not_contains "$scratch/same/summary.md" "REGRESSION"

# A build that fails: the bench step fails with cgbench-pr's exit code and names it.
dir="$scratch/broken-build"
mkdir -p "$dir/home" "$dir/temp"
ci_make_repo "$dir" same
echo '{"pull_request": {"number": 7}}' >"$dir/event.json"
: >"$dir/summary.md"
if (cd "$dir/work" &&
    env HOME="$dir/home" RUNNER_TEMP="$dir/temp" GITHUB_WORKSPACE="$dir/work" GITHUB_BASE_REF=main \
      GITHUB_EVENT_PATH="$dir/event.json" GITHUB_STEP_SUMMARY="$dir/summary.md" \
      node "$ci_root/tests/ci/run-action.mjs" "$ci_root/ci/github" --input build=false \
      --restore-cache "$scratch/cache" --outputs "$dir/outputs.json") >"$dir/log" 2>&1; then
  cat "$dir/log" >&2
  fail "broken-build: the action passed"
fi
expect_contains "$dir/log" "cgbench-pr: error: the build command failed for the base"
expect_contains "$dir/log" "cgbench-pr failed with exit code 3"
expect_contains "$dir/log" "Fail on a regression: skipped"
expect_contains "$dir/outputs.json" '"regressed": ""'

# A push to the default branch: no base, HEAD measured and recorded in the history database.
dir="$scratch/push"
mkdir -p "$dir/home" "$dir/temp"
ci_make_repo "$dir" same
echo '{}' >"$dir/event.json"
: >"$dir/summary.md"
(cd "$dir/work" &&
  env -u GITHUB_BASE_REF HOME="$dir/home" RUNNER_TEMP="$dir/temp" GITHUB_WORKSPACE="$dir/work"     GITHUB_EVENT_NAME=push GITHUB_EVENT_PATH="$dir/event.json" GITHUB_STEP_SUMMARY="$dir/summary.md"     node "$ci_root/tests/ci/run-action.mjs" "$ci_root/ci/github"     --input build=./build.sh --input history-db=.cgbench/history.db     --restore-cache "$scratch/cache" --outputs "$dir/outputs.json") >"$dir/log" 2>&1 ||
  { cat "$dir/log" >&2; fail "push: the action failed"; }
expect_contains "$dir/log" "no --base: measuring HEAD only"
expect_contains "$dir/summary.md" "| sum/60000 | ok |"
expect_contains "$dir/outputs.json" '"regressed": "false"'
expect_contains "$dir/outputs.json" '"comment-path": ""'
"$build/src/cgbench" history --db "$dir/work/.cgbench/history.db" >"$dir/history.txt"
expect_contains "$dir/history.txt" "$(git -C "$dir/work" rev-parse --short=10 HEAD)"
echo "action.yml: regression fails the step, an unchanged head passes, a push records history"
