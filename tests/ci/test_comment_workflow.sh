#!/usr/bin/env bash
# Runs the comment job of ci/github/examples/cgbench-comment.yml (run-action.mjs --workflow)
# with a stub `gh` that answers from a small fake of GitHub's API (pull requests and their
# comments, in files) and records every call, as the workflow_run event of a fork's pull
# request would trigger it:
#   genuine:   the artifact names #42, whose head is the run's commit: the comment is posted,
#              and the next run updates it in place (PATCH of the bot's own comment)
#   forged:    the artifact names #3 (another pull request): nothing is posted or edited
#   planted:   someone else wrote the marker on #42: their comment is never edited
#   stale:     the run measured a commit that is no longer #42's head: nothing is posted
#   mentions:  an @name in the text is defused
#   branches:  pull requests from branches named fix+perf, a#b and x&y are found (the query's
#              values reach the API encoded, as gh's -f encodes them)
#   cut:       a text over the size limit is cut at a line's end, its <details> closed, with
#              a note
# Usage: test_comment_workflow.sh BUILD_DIR; CGBENCH_CI_SCENARIOS="branches cut" runs only
# those scenarios (default: all of them).
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
ci_install_clients
command -v jq >/dev/null || fail "the stub gh needs jq (scripts/install-deps.sh installs it)"
scenarios="${CGBENCH_CI_SCENARIOS:-}"
scratch="$(ci_scratch "$build" "comment-workflow${scenarios:+-${scenarios// /-}}")"
workflow="$ci_root/ci/github/examples/cgbench-comment.yml"
head_sha=1111111111111111111111111111111111111111

# The fake API: api/pulls.json (open pull requests), api/comments-N.json (the comments of
# #N), api/calls (every call, one per line: METHOD PATH).
mkdir -p "$scratch/bin"
cat >"$scratch/bin/gh" <<'SH'
#!/usr/bin/env bash
# gh api [-X METHOD] PATH [-f KEY=VALUE]... [--paginate] [--jq FILTER] [-F body=@FILE]: the
# calls the comment job makes, answered from $FAKE_API. As the real gh, -f values of a GET
# become the query string, encoded; a query written into PATH is taken as it is, and read
# as a server would ('+' a space, '#' the end, '&' the next parameter).
set -euo pipefail
[ "$1" = api ] || { echo "stub gh: only 'gh api' is faked" >&2; exit 2; }
shift
method=GET path="" filter="." body=""
declare -A field=()
while [ $# -gt 0 ]; do
  case "$1" in
    -X) method="$2"; shift 2 ;;
    --jq) filter="$2"; shift 2 ;;
    --paginate) shift ;;
    -F) body="${2#body=@}"; shift 2 ;;
    -f) field["${2%%=*}"]="${2#*=}"; shift 2 ;;
    *) path="$1"; shift ;;
  esac
done
echo "$method $path" >>"$FAKE_API/calls"
case "$method $path" in
  "GET repos/example/project/pulls"*)
    if [ -n "${field[head]+set}" ]; then
      head="${field[head]}"
    else
      query="${path#*\?}"
      query="${query%%#*}"
      head="$(tr '&' '\n' <<<"$query" | sed -n 's/^head=//p' | tr '+' ' ')"
    fi
    jq -r --arg head "$head" "[.[] | select(.head.label == \$head)] | $filter" "$FAKE_API/pulls.json" ;;
  "GET repos/example/project/issues/"*/comments)
    n="$(cut -d/ -f5 <<<"$path")"
    jq -r "$filter" "$FAKE_API/comments-$n.json" 2>/dev/null || echo "[]" | jq -r "$filter" ;;
  "POST repos/example/project/issues/"*/comments)
    n="$(cut -d/ -f5 <<<"$path")"
    [ -f "$FAKE_API/comments-$n.json" ] || echo '[]' >"$FAKE_API/comments-$n.json"
    jq --rawfile b "$body" '. + [{id: (1000 + length), user: {login: "github-actions[bot]"}, body: $b}]' \
      "$FAKE_API/comments-$n.json" >"$FAKE_API/tmp" && mv "$FAKE_API/tmp" "$FAKE_API/comments-$n.json"
    echo '{}' ;;
  "PATCH repos/example/project/issues/comments/"*)
    id="${path##*/}"
    for f in "$FAKE_API"/comments-*.json; do
      jq --rawfile b "$body" --argjson id "$id" 'map(if .id == $id then .body = $b else . end)' \
        "$f" >"$FAKE_API/tmp" && mv "$FAKE_API/tmp" "$f"
    done
    echo '{}' ;;
  *) echo "stub gh: unexpected call $method $path" >&2; exit 1 ;;
esac
SH
chmod +x "$scratch/bin/gh"

# A fresh fake: #42 from the fork's branch `feature` at head_sha, #3 someone else's.
reset_api() { # DIR
  mkdir -p "$1/api"
  : >"$1/api/calls"
  cat >"$1/api/pulls.json" <<JSON
[{"number": 42, "head": {"label": "forker:feature", "sha": "$head_sha"}},
 {"number": 3, "head": {"label": "other:fix", "sha": "2222222222222222222222222222222222222222"}}]
JSON
}

# The artifact the pull-request workflow uploaded (possibly tampered with by the fork).
artifact() { # DIR PR_NUMBER TEXT
  mkdir -p "$1/artifact"
  printf '<!-- cgbench-comment -->\n### cgbench ✅: %s\n' "$3" >"$1/artifact/comment.md"
  echo "$2" >"$1/artifact/pr-number"
}

run_job() { # DIR [HEAD_SHA [HEAD_BRANCH]] -> exit code of the job; log in DIR/log
  local dir="$1" sha="${2:-$head_sha}" branch="${3:-feature}" code=0
  jq -n --arg sha "$sha" --arg branch "$branch" \
    '{workflow_run: {event: "pull_request", id: 7, head_sha: $sha, head_branch: $branch,
      head_repository: {full_name: "forker/project", owner: {login: "forker"}}}}' >"$dir/event.json"
  rm -rf "$dir/work"
  mkdir -p "$dir/work" "$dir/temp"
  (cd "$dir/work" && env PATH="$scratch/bin:$PATH" FAKE_API="$dir/api" RUNNER_TEMP="$dir/temp" \
    GITHUB_WORKSPACE="$dir/work" GITHUB_REPOSITORY=example/project GITHUB_EVENT_NAME=workflow_run \
    GITHUB_EVENT_PATH="$dir/event.json" \
    node "$ci_root/tests/ci/run-action.mjs" --workflow "$workflow" --job comment \
      --secret GITHUB_TOKEN=fake --artifact "$dir/artifact") >"$dir/log" 2>&1 || code=$?
  return "$code"
}

calls() { grep -c "^$2" "$1/api/calls" || true; }
wanted() { [ -z "${CGBENCH_CI_SCENARIOS:-}" ] || [[ " $CGBENCH_CI_SCENARIOS " == *" $1 "* ]]; }

# genuine: posted, then updated in place.
if wanted genuine; then
  dir="$scratch/genuine"
  reset_api "$dir"
  artifact "$dir" 42 "first"
  run_job "$dir" || { cat "$dir/log" >&2; fail "genuine: the job failed"; }
  [ "$(calls "$dir" "POST repos/example/project/issues/42/comments")" -eq 1 ] || fail "genuine: no POST on #42"
  artifact "$dir" 42 "second"
  run_job "$dir" || { cat "$dir/log" >&2; fail "genuine: the second run failed"; }
  [ "$(calls "$dir" "PATCH repos/example/project/issues/comments/1000")" -eq 1 ] ||
    { cat "$dir/api/calls" >&2; fail "genuine: the second run did not update comment 1000"; }
  [ "$(jq length "$dir/api/comments-42.json")" -eq 1 ] || fail "genuine: more than one comment"
  jq -r '.[0].body' "$dir/api/comments-42.json" | grep -q "second" || fail "genuine: not updated"
fi

# forged: the fork's artifact names #3; nothing is posted anywhere.
if wanted forged; then
  dir="$scratch/forged"
  reset_api "$dir"
  artifact "$dir" 3 "forged"
  if run_job "$dir"; then cat "$dir/log" >&2; fail "forged: the job passed"; fi
  expect_contains "$dir/log" "the artifact names pull request '3', the run belongs to #42"
  [ "$(calls "$dir" "POST")" -eq 0 ] && [ "$(calls "$dir" "PATCH")" -eq 0 ] ||
    { cat "$dir/api/calls" >&2; fail "forged: something was posted"; }
fi

# planted: a user's comment on #42 starts with the marker; it is left alone.
if wanted planted; then
  dir="$scratch/planted"
  reset_api "$dir"
  echo '[{"id": 555, "user": {"login": "mallory"}, "body": "<!-- cgbench-comment -->\nmine"}]' \
    >"$dir/api/comments-42.json"
  artifact "$dir" 42 "real"
  run_job "$dir" || { cat "$dir/log" >&2; fail "planted: the job failed"; }
  [ "$(calls "$dir" "PATCH")" -eq 0 ] || fail "planted: a comment was edited"
  [ "$(calls "$dir" "POST repos/example/project/issues/42/comments")" -eq 1 ] || fail "planted: no own comment"
  [ "$(jq -r '.[0].body' "$dir/api/comments-42.json")" = "$(printf '<!-- cgbench-comment -->\nmine')" ] ||
    fail "planted: mallory's comment changed"
fi

# stale: the run measured an older commit of #42; a newer run will comment.
if wanted stale; then
  dir="$scratch/stale"
  reset_api "$dir"
  artifact "$dir" 42 "old numbers"
  run_job "$dir" 3333333333333333333333333333333333333333 || { cat "$dir/log" >&2; fail "stale: the job failed"; }
  expect_contains "$dir/log" "no open pull request has 3333333333333333333333333333333333333333 as its head"
  [ "$(calls "$dir" "POST")" -eq 0 ] || fail "stale: a comment was posted"
fi

# mentions: @team in a (fork-controlled) benchmark name does not notify anyone.
if wanted mentions; then
  dir="$scratch/mentions"
  reset_api "$dir"
  artifact "$dir" 42 "1 of 1 got more expensive (worst: +5% @org/team)"
  run_job "$dir" || { cat "$dir/log" >&2; fail "mentions: the job failed"; }
  body="$(jq -r '.[0].body' "$dir/api/comments-42.json")"
  grep -q "@org/team" <<<"$body" && fail "mentions: '@org/team' was posted as a mention"
  grep -q "$(printf '@\xe2\x80\x8dorg/team')" <<<"$body" || fail "mentions: the text was lost: $body"
fi

# branches: the fork's branch names hold characters a query string gives meaning to.
if wanted branches; then
  for branch in 'fix+perf' 'a#b' 'x&y'; do
    dir="$scratch/branches-$(tr -c 'a-z' _ <<<"$branch")"
    reset_api "$dir"
    jq --arg lbl "forker:$branch" --arg sha "$head_sha" \
      '. + [{"number": 77, "head": {"label": $lbl, "sha": $sha}}]' "$dir/api/pulls.json" >"$dir/api/tmp" &&
      mv "$dir/api/tmp" "$dir/api/pulls.json"
    artifact "$dir" 77 "from $branch"
    run_job "$dir" "$head_sha" "$branch" || { cat "$dir/log" >&2; fail "branches: the job failed for $branch"; }
    [ "$(calls "$dir" "POST repos/example/project/issues/77/comments")" -eq 1 ] ||
      { cat "$dir/log" >&2; fail "branches: no comment on the pull request from $branch"; }
  done
fi

# cut: 3,000 lines of 100 bytes inside <details>: cut at a line's end, closed, with a note.
if wanted cut; then
  dir="$scratch/cut"
  reset_api "$dir"
  mkdir -p "$dir/artifact"
  { printf '<!-- cgbench-comment -->\n### cgbench ❌: long\n\n<details><summary>All</summary>\n\n'
    for i in $(seq 1 3000); do printf '| row %04d | %s |\n' "$i" "$(printf 'x%.0s' $(seq 1 85))"; done
    printf '\n</details>\n'; } >"$dir/artifact/comment.md"
  echo 42 >"$dir/artifact/pr-number"
  run_job "$dir" || { cat "$dir/log" >&2; fail "cut: the job failed"; }
  body="$(jq -r '.[0].body' "$dir/api/comments-42.json")"
  [ "$(wc -c <<<"$body")" -le 60100 ] || fail "cut: the comment has $(wc -c <<<"$body") bytes"
  [ "$(grep -c '<details' <<<"$body")" -eq "$(grep -c '</details>' <<<"$body")" ] ||
    fail "cut: a <details> is left open"
  grep -q "this report was cut to fit a comment" <<<"$body" || fail "cut: no note that it was cut"
  grep -qE '^\| row [0-9]{4} \| x{85} \|$' <<<"$body" || fail "cut: no whole row left"
  [ -z "$(grep '^| row' <<<"$body" | grep -vE '^\| row [0-9]{4} \| x{85} \|$')" ] ||
    fail "cut: a row was cut in the middle"
fi
echo "cgbench-comment.yml: posts and updates its own comment; refuses a forged PR number, a planted marker, a stale run; defuses mentions"
