#!/usr/bin/env bash
# Runs the steps of ci/github/action.yml here (run-action.mjs) against the throw-away
# repository, as a pull_request or push job would: GITHUB_BASE_REF=main, a PR event, the
# step summary and outputs files. The actions/cache step is emulated as a hit holding this
# build installed (so cgbench is not rebuilt); actions/upload-artifact is not run.
#   regress:     the summary holds the table, regressed=true, the step fails (exit 1); the
#                log holds the comparison table and the functions that moved
#   same:        regressed=false, every step passes; `threshold: 2%` is a threshold
#   first PR:    main has no cgbench.toml yet: no baseline, the step passes with a note
#   merge ref:   main moved after the branch point and HEAD is GitHub's merge commit
#                (refs/pull/N/merge): only the PR's own change is reported
#   broken build: the step fails with cgbench-pr's exit code (3), no verdict
#   bad threshold: the step fails before anything is built
#   pushes:      HEAD compared with the previous run of main in the history database: the
#                first has no baseline, a regression fails the step, a broken benchmark too,
#                and fail-on-regression: false only warns
# Usage: test_action_local.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
ci_install_clients
scratch="$(ci_scratch "$build" action-local)"
ci_install_build "$build" "$scratch/cache"

# The action in DIR/work (made by the caller) as EVENT; log in DIR/log, outputs in
# DIR/outputs.json. Returns the action's exit code.
action() { # DIR EVENT ARGS...
  local dir="$1" event="$2" code=0
  shift 2
  mkdir -p "$dir/home" "$dir/temp"
  : >"$dir/summary.md"
  local vars=(GITHUB_EVENT_NAME=push GITHUB_REF_NAME=main)
  if [ "$event" = pull_request ]; then
    echo '{"pull_request": {"number": 42, "head": {"sha": "abcdef0123456789"}}}' >"$dir/event.json"
    vars=(GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main GITHUB_HEAD_REF=pr)
  else
    echo '{}' >"$dir/event.json"
  fi
  (cd "$dir/work" &&
    env -u GITHUB_BASE_REF -u GITHUB_HEAD_REF HOME="$dir/home" RUNNER_TEMP="$dir/temp" \
      GITHUB_WORKSPACE="$dir/work" GITHUB_EVENT_PATH="$dir/event.json" "${vars[@]}" \
      GITHUB_STEP_SUMMARY="$dir/summary.md" GITHUB_REPOSITORY=example/project \
      node "$ci_root/tests/ci/run-action.mjs" "$ci_root/ci/github" \
      --restore-cache "$scratch/cache" --outputs "$dir/outputs.json" "$@") >"$dir/log" 2>&1 ||
    code=$?
  return "$code"
}

expect_action() { # DIR EVENT EXPECTED_EXIT ARGS...
  local dir="$1" event="$2" want="$3" code=0
  shift 3
  action "$dir" "$event" "$@" || code=$?
  [ "$code" -eq "$want" ] || { cat "$dir/log" >&2; fail "$(basename "$dir"): the action exited $code, expected $want"; }
}

expect_output() { # DIR NAME VALUE
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (o[process.argv[2]] !== process.argv[3]) { console.error(JSON.stringify(o)); process.exit(1); }
  ' "$1/outputs.json" "$2" "$3" || fail "$(basename "$1"): output $2 is not '$3'"
}

pr_case() { # CASE EXPECTED_EXIT REGRESSED
  local dir="$scratch/$1"
  ci_make_repo "$dir" "$1"
  expect_action "$dir" pull_request "$2" --input build=./build.sh --input threshold=2%
  expect_contains "$dir/log" "cache hit emulated"
  expect_contains "$dir/log" "not run locally (uses: actions/upload-artifact@v4)"
  expect_contains "$dir/summary.md" "| benchmark | base cost | head cost |"
  expect_contains "$dir/work/cgbench-pr/comment.md" "<!-- cgbench-comment -->"
  expect_contains "$dir/work/cgbench-pr/comment.md" "cgbench at abcdef0123"
  [ "$(cat "$dir/work/cgbench-pr/pr-number")" = 42 ] || fail "$1: pr-number is not 42"
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const k of ["report-path", "result-path", "junit-path", "comment-path"])
      if (!require("fs").existsSync(o[k])) { console.error(`output ${k}=${o[k]} is not a file`); process.exit(1); }
  ' "$dir/outputs.json" || fail "$1: outputs $(cat "$dir/outputs.json")"
  expect_output "$dir" regressed "$3"
}

pr_case regress 1 true
change="$(cost_change "$scratch/regress/work/cgbench-pr" sum/60000)"
expect_contains "$scratch/regress/summary.md" "cgbench ❌: 1 of 2 benchmarks got more expensive"
expect_contains "$scratch/regress/summary.md" "| sum/60000 |"
expect_contains "$scratch/regress/summary.md" "**REGRESSION**: cost $change"
expect_contains "$scratch/regress/log" "Fail on a regression: failed with exit code 1"
expect_contains "$scratch/regress/log" "::error title=cgbench::1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
# The verdict in the job log: the table, the functions that moved, the verdict line.
expect_contains "$scratch/regress/log" "benchmark  base cost  head cost  change  Ir change  verdict"
expect_contains "$scratch/regress/log" "REGRESSION  cost $change"
expect_contains "$scratch/regress/log" "Functions that moved in sum/60000"
expect_contains "$scratch/regress/log" "FAIL  1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
expect_contains "$scratch/regress/summary.md" "- **Base:** merge base with main"
expect_not_contains "$scratch/regress/summary.md" "$scratch"

pr_case same 0 false
expect_contains "$scratch/same/summary.md" "No benchmark got more expensive"
expect_contains "$scratch/same/log" "Fail on a regression: skipped"
expect_not_contains "$scratch/same/summary.md" "REGRESSION"

# The first pull request: no cgbench.toml on main yet.
pr_case first 0 false
expect_contains "$scratch/first/summary.md" "No baseline: the merge base"
expect_contains "$scratch/first/summary.md" "has no cgbench.toml; every benchmark is reported as added"
expect_contains "$scratch/first/summary.md" "No benchmark got more expensive; 2 added"

# GitHub's merge ref: HEAD merges the PR into main's tip, which moved on (copy/20000 got
# 20% dearer on main only). The base is main's tip, so only sum/60000 is the PR's.
dir="$scratch/merge-ref"
ci_make_repo "$dir" moved
git -C "$dir/work" push -q origin main
git -C "$dir/work" fetch -q origin
git -C "$dir/work" checkout -q --detach origin/main
git -C "$dir/work" merge -q --no-ff -m "Merge pr into main" pr
expect_action "$dir" pull_request 1 --input build=./build.sh
expect_contains "$dir/summary.md" "cgbench ❌: 1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
expect_unchanged "$dir/summary.md" copy/20000

# A pull request with main's history: main's push measured the merge base, so its run is the
# base (not built); reuse-base: false builds it.
dir="$scratch/reuse"
ci_make_repo "$dir" regress
git -C "$dir/work" checkout -q main
expect_action "$dir" push 0 --input build=./build.sh --input history-db=.cgbench/history.db
git -C "$dir/work" checkout -q pr
expect_action "$dir" pull_request 1 --input build=./build.sh --input history-db=.cgbench/history.db
expect_contains "$dir/log" "base: main's run of $(git -C "$dir/work" rev-parse --short=10 main)"
expect_not_contains "$dir/log" "building the base"
expect_contains "$dir/summary.md" "reused from the history"
expect_contains "$dir/summary.md" "1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
expect_action "$dir" pull_request 1 --input build=./build.sh --input history-db=.cgbench/history.db \
  --input reuse-base=false
expect_contains "$dir/log" "building the base"
expect_contains "$dir/summary.md" "no stored run reused: --no-reuse"

# A build that fails: the bench step fails with cgbench-pr's exit code and names it.
dir="$scratch/broken-build"
ci_make_repo "$dir" same
expect_action "$dir" pull_request 1 --input build=false
expect_contains "$dir/log" "cgbench: error: the build command failed for the head"  # HEAD is built first
expect_contains "$dir/log" "cgbench-pr failed with exit code 3"
expect_contains "$dir/log" "Fail on a regression: skipped"
expect_output "$dir" regressed ""

# A threshold that is none: refused before anything is built.
dir="$scratch/bad-threshold"
ci_make_repo "$dir" same
expect_action "$dir" pull_request 1 --input build=./build.sh --input threshold=fast
expect_contains "$dir/log" "invalid threshold 'fast'"
expect_contains "$dir/log" "cgbench-pr failed with exit code 2"
expect_not_contains "$dir/log" "building the base"

# Pushes to main, each compared with the previous run of main in the history database.
dir="$scratch/push"
ci_make_repo "$dir" same
git -C "$dir/work" checkout -q main
push() { # EXPECTED_EXIT ARGS...
  local want="$1"
  shift
  expect_action "$dir" push "$want" --input build=./build.sh --input history-db=.cgbench/history.db "$@"
}
push 0
expect_contains "$dir/log" "no base: measuring HEAD, then comparing it with the previous run of its branch"
expect_contains "$dir/summary.md" "No baseline: no earlier run of branch main measured the same way is stored"
expect_output "$dir" regressed false
expect_output "$dir" comment-path ""
[ -f "$dir/work/cgbench-pr/history.html" ] || fail "push: no history.html"
git -C "$dir/work" merge -q --ff-only pr
push 0
expect_contains "$dir/summary.md" "- **Base:** previous run of main \\($(git -C "$dir/work" rev-parse --short=10 HEAD~1)\\)"
expect_contains "$dir/summary.md" "No benchmark got more expensive; 2 unchanged"
"$ci_root/tests/ci/make-repo.sh" "$dir/regress-src" regress >/dev/null
cp "$dir/regress-src/prog.c" "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: sum does more"
push 1
expect_contains "$dir/summary.md" "**REGRESSION**: cost $change"
expect_contains "$dir/log" "Fail on a regression: failed with exit code 1"
expect_output "$dir" regressed true
sed -i 's|    if (argv\[1\]\[0\] == .s.) {|    if (argv[1][0] == '"'c'"') return 1;\n&|' "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: copy breaks"
push 1
expect_contains "$dir/log" "::error title=cgbench::a benchmark failed in HEAD"
expect_contains "$dir/summary.md" "copy/20000"
push 0 --input fail-on-regression=false
expect_contains "$dir/log" "::warning title=cgbench::a benchmark failed in HEAD"
expect_contains "$dir/log" "Fail on a regression: skipped"
expect_output "$dir" regressed true
"$build/src/cgbench" history --db "$dir/work/.cgbench/history.db" >"$dir/history.txt"
expect_contains "$dir/history.txt" "$(git -C "$dir/work" rev-parse --short=10 HEAD)"
echo "action.yml: regressions fail with the table in the log, first PR and merge ref right, pushes watched against the previous run"
