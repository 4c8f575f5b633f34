#!/usr/bin/env bash
# scripts/cgbench-pr.sh on its own, as a developer or a CI job runs it, on the throw-away
# repository (tests/ci/make-repo.sh), with this build's cgbench:
#   D2 stale head:  a second run whose HEAD measures nothing fails (exit 3); it never
#                   compares the head.json an earlier run left behind
#   first PR:       the merge base has no cgbench.toml: no baseline, every benchmark added,
#                   the gate passes with a note, the base is not even built
#   threshold:      `2%` is the gate's grammar too; a bad one fails before anything is built
#   labels, paths:  the base is "merge base with main" on branch main (not the PR's branch
#                   CI names for HEAD), and no report holds a temporary or absolute path
#   the log:        the comparison table and the functions that moved are printed
#   branch mode:    pushes compared with the branch's previous stored run: the first has no
#                   baseline, a regression fails (1), a broken benchmark fails (3),
#                   --warn-only exits 0 and keeps the verdict in exit-code
# Usage: test_cgbench_pr.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
scratch="$(ci_scratch "$build" cgbench-pr)"
export CGBENCH="$build/src/cgbench"
pr="$ci_root/scripts/cgbench-pr.sh"

# cgbench-pr in DIR/work, output in DIR/log; prints nothing, returns its exit code.
run_pr() { # DIR ARGS...
  local dir="$1" code=0
  shift
  (cd "$dir/work" && env -u GITHUB_BASE_REF -u CI_MERGE_REQUEST_DIFF_BASE_SHA \
      -u CI_MERGE_REQUEST_TARGET_BRANCH_SHA TMPDIR="$dir/tmp" "$pr" "$@") >"$dir/log" 2>&1 || code=$?
  return "$code"
}

expect_exit() { # DIR EXPECTED ARGS...
  local dir="$1" want="$2" code=0
  shift 2
  run_pr "$dir" "$@" || code=$?
  [ "$code" -eq "$want" ] || { cat "$dir/log" >&2; fail "$(basename "$dir"): cgbench-pr $* exited $code, expected $want"; }
}

new_repo() { # NAME CHANGE
  local dir="$scratch/$1"
  mkdir -p "$dir/tmp"
  "$ci_root/tests/ci/make-repo.sh" "$dir/work" "$2" >/dev/null
  echo "$dir"
}

# D2: the first run passes; then HEAD's program fails for every benchmark: the second run
# must fail, not compare the first run's head.json.
dir="$(new_repo d2-stale-head same)"
expect_exit "$dir" 0 --base main --build ./build.sh
sed -i 's|int main(int argc, char\*\* argv) {|int main(int argc, char** argv) { return 7;|' "$dir/work/prog.c"
expect_exit "$dir" 3 --base main --build ./build.sh
expect_contains "$dir/log" "cgbench: error: the head measured nothing"
expect_not_contains "$dir/log" "PASS"
[ ! -e "$dir/work/cgbench-pr/head.json" ] || fail "D2: the stale head.json survived"
# ...and the same for the base: main breaks the program and the next branch fixes it, so
# the merge base measures nothing; the first run's base.json must not stand in for it.
dir="$(new_repo d2-stale-base same)"
expect_exit "$dir" 0 --base main --build ./build.sh
git -C "$dir/work" checkout -q main
sed -i 's|int main(int argc, char\*\* argv) {|int main(int argc, char** argv) { return 7;|' "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: broken"
git -C "$dir/work" checkout -q -b fix
git -C "$dir/work" revert --no-edit HEAD >/dev/null
expect_exit "$dir" 3 --base main --build ./build.sh
expect_contains "$dir/log" "error: the base measured nothing"

# First PR: main has no cgbench.toml.
dir="$(new_repo first-pr first)"
expect_exit "$dir" 0 --base main --build ./build.sh
expect_contains "$dir/log" "no baseline: the merge base"
expect_not_contains "$dir/log" "building the base"
expect_contains "$dir/work/cgbench-pr/report.md" "No baseline: the merge base $(git -C "$dir/work" rev-parse --short=10 main) has no cgbench.toml; every benchmark is reported as added"
expect_contains "$dir/work/cgbench-pr/summary.txt" "PASS  No benchmark got more expensive; 2 added"
expect_contains "$dir/work/cgbench-pr/report.xml" '<property name="note" value="No baseline: the merge base'
[ ! -e "$dir/work/cgbench-pr/base.json" ] || fail "first PR: a base.json was written"

# Thresholds: checked first; 2% is a threshold everywhere.
dir="$(new_repo threshold regress)"
expect_exit "$dir" 2 --base main --build ./build.sh --threshold 'cost=fast'
expect_contains "$dir/log" "invalid threshold 'cost=fast'"
expect_not_contains "$dir/log" "building"
expect_exit "$dir" 2 --base main --build ./build.sh --threshold 2
expect_exit "$dir" 1 --base main --build ./build.sh --threshold 2%
expect_exit "$dir" 0 --base main --build ./build.sh --threshold '10%|1000'
CGBENCH_THRESHOLD=oops expect_exit "$dir" 2 --base main --build ./build.sh

# Labels and paths, as CI runs it (GITHUB_HEAD_REF names the PR's branch for HEAD).
dir="$(new_repo labels regress)"
(cd "$dir/work" && env GITHUB_HEAD_REF=pr TMPDIR="$dir/tmp" RUNNER_TEMP="$dir/tmp" \
  "$pr" --base main --build ./build.sh) >"$dir/log" 2>&1 && fail "labels: the regression passed"
out="$dir/work/cgbench-pr"
change="$(cost_change "$out" sum/60000)"
change_re="${change//./\\.}"
change_re="${change_re//+/\\+}"
expect_contains "$out/report.md" "- **Base:** merge base with main · run "
expect_contains "$out/report.md" "branch main"
expect_contains "$out/report.md" "- **Head:** HEAD · run "
expect_contains "$out/report.md" "branch pr"
expect_contains "$out/report.xml" '<testsuite name="cgbench compare merge base with main .. HEAD"'
for f in report.md report.xml compare.json console.txt summary.txt metrics.txt; do
  expect_not_contains "$out/$f" "$dir"
  expect_not_contains "$out/$f" "/tmp/"
done
# The log: the console table and the functions that moved, not only a summary line.
expect_contains "$dir/log" "benchmark  base cost  head cost  change  Ir change  verdict"
grep -qE '^sum/60000 +[0-9,]+ +[0-9,]+ +'"${change_re}"' .* REGRESSION  cost '"${change_re}" "$dir/log" ||
  { cat "$dir/log" >&2; fail "log: no table row for sum/60000"; }
expect_contains "$dir/log" "Functions that moved in sum/60000"
expect_contains "$dir/log" "FAIL  1 of 2 benchmarks got more expensive (worst: $change sum/60000)"

# Branch mode: pushes to main compared with the previous run of main in the history.
dir="$(new_repo branch same)"
git -C "$dir/work" checkout -q main
expect_exit "$dir" 0 --build ./build.sh --history .cgbench/history.db
expect_contains "$dir/work/cgbench-pr/report.md" "No baseline: no earlier run of branch main measured the same way is stored"
git -C "$dir/work" merge -q --ff-only pr
expect_exit "$dir" 0 --build ./build.sh --history .cgbench/history.db
expect_contains "$dir/log" "base  previous run of main ($(git -C "$dir/work" rev-parse --short=10 HEAD~1))"
expect_contains "$dir/work/cgbench-pr/summary.txt" "PASS  No benchmark got more expensive; 2 unchanged"
"$ci_root/tests/ci/make-repo.sh" "$scratch/branch-regress-src" regress >/dev/null
cp "$scratch/branch-regress-src/prog.c" "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: sum does more"
expect_exit "$dir" 1 --build ./build.sh --history .cgbench/history.db
expect_contains "$dir/log" "REGRESSION  cost $change"
expect_contains "$dir/work/cgbench-pr/report.md" "- **Base:** previous run of main"
sed -i 's|    if (argv\[1\]\[0\] == .s.) {|    if (argv[1][0] == '"'c'"') return 1;\n&|' "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: copy breaks"
expect_exit "$dir" 3 --build ./build.sh --history .cgbench/history.db
expect_contains "$dir/work/cgbench-pr/summary.txt" "FAIL  a benchmark failed in HEAD"
expect_contains "$dir/work/cgbench-pr/report.md" "copy/20000"
expect_exit "$dir" 0 --build ./build.sh --history .cgbench/history.db --warn-only
expect_contains "$dir/log" "(--warn-only: exit 0 instead of 3)"
[ "$(cat "$dir/work/cgbench-pr/exit-code")" = 3 ] || fail "branch: exit-code is not 3 under --warn-only"
"$CGBENCH" history --db "$dir/work/.cgbench/history.db" >"$dir/history.txt"
[ "$(grep -c '^2026\|^20[0-9][0-9]' "$dir/history.txt")" -ge 5 ] || { cat "$dir/history.txt" >&2; fail "branch: runs not recorded"; }
echo "cgbench-pr: stale results never compared (D2), first PR passes, thresholds checked first, labels and log right, pushes watched"
