#!/usr/bin/env bash
# Runs the jobs of ci/gitlab/cgbench.gitlab-ci.yml with gitlab-ci-local (shell executor)
# against the throw-away repository, included as a user would (`include: local`):
#   regress: merge-request pipeline (2 shards + report): the report job fails, the JUnit
#            report has a <failure> for the regressed benchmark, metrics.txt is written,
#            the job log shows the comparison table; with CGBENCH_GITLAB_TOKEN the MR note
#            is posted, then updated in place (a stub curl answers as GitLab's API), and a
#            note someone else wrote with the marker is left alone
#   same:    the same pipeline passes
#   bases:   main moved after the branch point (its change makes copy/20000 20% dearer):
#            a merge-request pipeline (CI_MERGE_REQUEST_DIFF_BASE_SHA), a merged-results
#            pipeline and a merge train (HEAD is the merge into main's tip,
#            CI_MERGE_REQUEST_TARGET_BRANCH_SHA) all blame the MR for sum/60000 only
#   history: the default-branch job records HEAD in .cgbench/history.db, compares each push
#            with the previous one, and fails on a regression
# cgbench comes from this build installed into CGBENCH_PREFIX, as the job's cache would
# restore it.
# Usage: test_gitlab_local.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
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
  (cd "$dir/work" && HOME="$dir" PATH="${stub_path:+$stub_path:}$PATH" \
      "$ci_bin/gitlab-ci-local" --no-color --shell-isolation \
      --ignore-predefined-vars CI_PIPELINE_SOURCE,CI_COMMIT_BRANCH "$@") >"$dir/log" 2>&1
}

merge_request() { # CASE EXPECTED_EXIT [VARIABLES...]
  local name="$1" want="$2" dir="$scratch/$1" code=0
  shift 2
  gcl "$dir" --needs --job cgbench:mr-report \
    --variable CI_PIPELINE_SOURCE=merge_request_event --variable CI_MERGE_REQUEST_IID=5 \
    --variable CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main \
    --variable "CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git -C "$dir/work" merge-base HEAD origin/main)" \
    "$@" || code=$?
  [ "$code" -eq "$want" ] || { cat "$dir/log" >&2; fail "$name: gitlab-ci-local exited $code, expected $want"; }
  expect_contains "$dir/log" "PASS  cgbench:mr: [1/2]"
  expect_contains "$dir/log" "PASS  cgbench:mr: [2/2]"
  for f in base-1 base-2 head-1 head-2 base head; do
    [ -f "$dir/work/cgbench-pr/$f.json" ] || fail "$1: no cgbench-pr/$f.json"
  done
  expect_contains "$dir/work/cgbench-pr/metrics.txt" 'cgbench_cost{benchmark="sum/60000"}'
  expect_contains "$dir/work/cgbench-pr/metrics.txt" "# EOF"
}

# The MR note, through a stub curl answering as GitLab's API: notes in DIR/api/notes.json,
# every call in DIR/api/calls. The token's user is 7; user 9 planted a marker note.
mkdir -p "$scratch/stub"
cat >"$scratch/stub/curl" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
method=GET url="" data=""
while [ $# -gt 0 ]; do
  case "$1" in
    -X) method="$2"; shift 2 ;;
    --header) shift 2 ;;
    --data) data="$2"; shift 2 ;;
    -*) shift ;;
    *) url="$1"; shift ;;
  esac
done
api="$FAKE_GITLAB"
echo "$method ${url#https://gitlab.example/api/v4}" >>"$api/calls"
case "$method ${url#https://gitlab.example/api/v4}" in
  "GET /user") echo '{"id": 7, "username": "cgbench-bot"}' ;;
  "GET /projects/11/merge_requests/5/notes?"*page=1\&*) cat "$api/notes.json" ;;
  "GET /projects/11/merge_requests/5/notes?"*) echo '[]' ;;
  "POST /projects/11/merge_requests/5/notes")
    jq --argjson d "$data" '. + [{id: (100 + length), author: {id: 7}, body: $d.body}]' \
      "$api/notes.json" >"$api/tmp" && mv "$api/tmp" "$api/notes.json"; echo '{}' ;;
  "PUT /projects/11/merge_requests/5/notes/"*)
    id="${url##*/}"
    jq --argjson d "$data" --argjson id "$id" 'map(if .id == $id then .body = $d.body else . end)' \
      "$api/notes.json" >"$api/tmp" && mv "$api/tmp" "$api/notes.json"; echo '{}' ;;
  *) echo "stub curl: unexpected $method $url" >&2; exit 22 ;;
esac
SH
chmod +x "$scratch/stub/curl"
prepare regress regress
mkdir -p "$scratch/regress/api"
echo '[{"id": 50, "author": {"id": 9}, "body": "<!-- cgbench-comment -->\nplanted"}]' >"$scratch/regress/api/notes.json"
note_vars=(--variable CGBENCH_GITLAB_TOKEN=secret --variable CI_API_V4_URL=https://gitlab.example/api/v4
           --variable CI_PROJECT_ID=11 --variable "FAKE_GITLAB=$scratch/regress/api")
stub_path="$scratch/stub" merge_request regress 1 "${note_vars[@]}"
change="$(cost_change "$scratch/regress/work/cgbench-pr" sum/60000)"
expect_contains "$scratch/regress/log" "FAIL  cgbench:mr-report"
expect_contains "$scratch/regress/log" "posted a note on !5"
# The comparison in the job log: the table row and the functions that moved.
expect_contains "$scratch/regress/log" "REGRESSION  cost $change"
expect_contains "$scratch/regress/log" "Functions that moved in sum/60000"
stub_path="$scratch/stub" merge_request regress 1 "${note_vars[@]}"
expect_contains "$scratch/regress/log" "updated note 101 on !5"
[ "$(jq length "$scratch/regress/api/notes.json")" -eq 2 ] || fail "regress: not one note of ours"
[ "$(jq -r '.[0].body' "$scratch/regress/api/notes.json")" = "$(printf '<!-- cgbench-comment -->\nplanted')" ] ||
  fail "regress: the planted note was edited"
jq -r '.[1].body' "$scratch/regress/api/notes.json" | grep -q "sum/60000" || fail "regress: the note lacks the report"
expect_contains "$scratch/regress/work/cgbench-pr/report.xml" '<testcase classname="cgbench.compare" name="sum/60000"'
[ "$(grep -c '<failure' "$scratch/regress/work/cgbench-pr/report.xml")" -eq 1 ] ||
  fail "regress: the JUnit report should hold exactly one <failure>"
expect_contains "$scratch/regress/work/cgbench-pr/summary.txt" "FAIL  1 of 2 benchmarks got more expensive (worst: $change sum/60000)"

prepare same same
merge_request same 0
expect_contains "$scratch/same/log" "PASS  cgbench:mr-report"
expect_not_contains "$scratch/same/work/cgbench-pr/report.xml" "<failure"

# The right base when main moved on. A merge-request pipeline runs on the MR's head; merged
# results and merge trains on GitLab's merge of it into main's tip, with the tip in
# CI_MERGE_REQUEST_TARGET_BRANCH_SHA.
bases() { # CASE EVENT_TYPE
  local dir="$scratch/$1"
  prepare "$1" moved
  git -C "$dir/work" push -q origin main
  git -C "$dir/work" fetch -q origin
  local extra=()
  if [ "$2" != detached ]; then
    git -C "$dir/work" checkout -q --detach origin/main
    git -C "$dir/work" merge -q --no-ff -m "Merge branch 'pr' into main" pr
    extra=(--variable "CI_MERGE_REQUEST_TARGET_BRANCH_SHA=$(git -C "$dir/work" rev-parse origin/main)")
  fi
  merge_request "$1" 1 --variable "CI_MERGE_REQUEST_EVENT_TYPE=$2" "${extra[@]}"
  expect_contains "$dir/work/cgbench-pr/summary.txt" "FAIL  1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
  expect_unchanged "$dir/work/cgbench-pr/report.md" copy/20000
}
bases mr-pipeline detached
bases merged-results merged_result
expect_contains "$scratch/merged-results/log" "base is the merge base of HEAD with $(git -C "$scratch/merged-results/work" rev-parse origin/main)"
bases merge-train merge_train

# A merge request with a history branch: main's run of the merge base, pushed there as the
# history job pushes it, is each shard's base (read, never built); CGBENCH_REUSE_BASE: false
# builds it.
dir="$scratch/reuse"
prepare reuse regress
git -C "$dir/work" checkout -q main
(cd "$dir/work" && ./build.sh && "$build/src/cgbench" run -q --no-db -o "$dir/main.json" &&
  CGBENCH="$build/src/cgbench" "$ci_root/scripts/cgbench-history.sh" push cgbench-data "$dir/main.json") \
  >"$dir/record.log" 2>&1 || { cat "$dir/record.log" >&2; fail "reuse: recording main's run"; }
git -C "$dir/work" checkout -q pr
merge_request reuse 1 --variable CGBENCH_HISTORY_BRANCH=cgbench-data
expect_contains "$dir/log" "base: main's run of $(git -C "$dir/work" rev-parse --short=10 main)"
expect_not_contains "$dir/log" "building the base"
expect_contains "$dir/work/cgbench-pr/report.md" "reused from the history"
expect_contains "$dir/work/cgbench-pr/summary.txt" "FAIL  1 of 2 benchmarks got more expensive (worst: $change sum/60000)"
merge_request reuse 1 --variable CGBENCH_HISTORY_BRANCH=cgbench-data --variable CGBENCH_REUSE_BASE=false
expect_contains "$dir/log" "building the base"
expect_contains "$dir/work/cgbench-pr/report.md" "no stored run reused: --no-reuse"

# Default branch: the history job on main measures HEAD and records it.
dir="$scratch/history"
prepare history same
git -C "$dir/work" checkout -q main
git -C "$dir/work" merge -q --ff-only pr
gcl "$dir" --job cgbench:history --variable CI_PIPELINE_SOURCE=push \
  --variable CI_COMMIT_BRANCH=main --variable CI_DEFAULT_BRANCH=main ||
  { cat "$dir/log" >&2; fail "history: gitlab-ci-local failed"; }
expect_contains "$dir/log" "PASS  cgbench:history"
expect_contains "$dir/log" "No baseline: no earlier run of branch main"
"$build/src/cgbench" history --db "$dir/work/.cgbench/history.db" sum/60000 >"$dir/history.txt"
expect_contains "$dir/history.txt" "sum/60000: 1 result"
expect_contains "$dir/work/cgbench-pr/metrics.txt" 'cgbench_instructions{benchmark="copy/20000"}'
[ -f "$dir/work/cgbench-pr/history.html" ] || fail "history: no history.html"
# The next push regresses sum/60000: compared with the previous run of main, it fails.
"$ci_root/tests/ci/make-repo.sh" "$dir/regress-src" regress >/dev/null
cp "$dir/regress-src/prog.c" "$dir/work/prog.c"
git -C "$dir/work" commit -q -am "main: sum does more"
if gcl "$dir" --job cgbench:history --variable CI_PIPELINE_SOURCE=push \
    --variable CI_COMMIT_BRANCH=main --variable CI_DEFAULT_BRANCH=main; then
  cat "$dir/log" >&2
  fail "history: a regression pushed to main passed"
fi
expect_contains "$dir/log" "FAIL  cgbench:history"
expect_contains "$dir/log" "base  previous run of main"
expect_contains "$dir/log" "REGRESSION  cost $change"
echo "GitLab template: a regression fails the pipeline with a JUnit failure and an MR note, an unchanged head passes, the right base in every pipeline kind, pushes watched"
