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
# Usage: test_comment_workflow.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
ci_install_clients
command -v jq >/dev/null || fail "the stub gh needs jq (scripts/install-deps.sh installs it)"
scratch="$(ci_scratch "$build" comment-workflow)"
workflow="$ci_root/ci/github/examples/cgbench-comment.yml"
head_sha=1111111111111111111111111111111111111111

# The fake API: api/pulls.json (open pull requests), api/comments-N.json (the comments of
# #N), api/calls (every call, one per line: METHOD PATH).
mkdir -p "$scratch/bin"
cat >"$scratch/bin/gh" <<'SH'
#!/usr/bin/env bash
# gh api [-X METHOD] PATH [--paginate] [--jq FILTER] [-F body=@FILE]: the calls the
# comment job makes, answered from $FAKE_API.
set -euo pipefail
[ "$1" = api ] || { echo "stub gh: only 'gh api' is faked" >&2; exit 2; }
shift
method=GET path="" filter="." body=""
while [ $# -gt 0 ]; do
  case "$1" in
    -X) method="$2"; shift 2 ;;
    --jq) filter="$2"; shift 2 ;;
    --paginate) shift ;;
    -F) body="${2#body=@}"; shift 2 ;;
    *) path="$1"; shift ;;
  esac
done
echo "$method $path" >>"$FAKE_API/calls"
case "$method $path" in
  "GET repos/example/project/pulls?"*)
    head="$(sed 's/.*head=\([^&]*\).*/\1/' <<<"$path")"
    jq -r "[.[] | select(.head.label == \"$head\")] | $filter" "$FAKE_API/pulls.json" ;;
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

run_job() { # DIR [HEAD_SHA] -> exit code of the job; log in DIR/log
  local dir="$1" sha="${2:-$head_sha}" code=0
  cat >"$dir/event.json" <<JSON
{"workflow_run": {"event": "pull_request", "id": 7, "head_sha": "$sha", "head_branch": "feature",
  "head_repository": {"full_name": "forker/project", "owner": {"login": "forker"}}}}
JSON
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

# genuine: posted, then updated in place.
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

# forged: the fork's artifact names #3; nothing is posted anywhere.
dir="$scratch/forged"
reset_api "$dir"
artifact "$dir" 3 "forged"
if run_job "$dir"; then cat "$dir/log" >&2; fail "forged: the job passed"; fi
expect_contains "$dir/log" "the artifact names pull request '3', the run belongs to #42"
[ "$(calls "$dir" "POST")" -eq 0 ] && [ "$(calls "$dir" "PATCH")" -eq 0 ] ||
  { cat "$dir/api/calls" >&2; fail "forged: something was posted"; }

# planted: a user's comment on #42 starts with the marker; it is left alone.
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

# stale: the run measured an older commit of #42; a newer run will comment.
dir="$scratch/stale"
reset_api "$dir"
artifact "$dir" 42 "old numbers"
run_job "$dir" 3333333333333333333333333333333333333333 || { cat "$dir/log" >&2; fail "stale: the job failed"; }
expect_contains "$dir/log" "no open pull request has 3333333333333333333333333333333333333333 as its head"
[ "$(calls "$dir" "POST")" -eq 0 ] || fail "stale: a comment was posted"

# mentions: @team in a (fork-controlled) benchmark name does not notify anyone.
dir="$scratch/mentions"
reset_api "$dir"
artifact "$dir" 42 "1 of 1 got more expensive (worst: +5% @org/team)"
run_job "$dir" || { cat "$dir/log" >&2; fail "mentions: the job failed"; }
body="$(jq -r '.[0].body' "$dir/api/comments-42.json")"
grep -q "@org/team" <<<"$body" && fail "mentions: '@org/team' was posted as a mention"
grep -q "$(printf '@\xe2\x80\x8dorg/team')" <<<"$body" || fail "mentions: the text was lost: $body"
echo "cgbench-comment.yml: posts and updates its own comment; refuses a forged PR number, a planted marker, a stale run; defuses mentions"
