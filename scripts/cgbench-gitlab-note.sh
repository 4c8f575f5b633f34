#!/usr/bin/env bash
# Posts a Markdown file as the cgbench note of the merge request a GitLab pipeline runs for,
# or updates the note it posted before: one note per merge request, found by its marker
# AND its author (the token's own user), so a note anyone else wrote with the marker is
# never edited.
#
# Usage: cgbench-gitlab-note.sh FILE
# Environment: CGBENCH_GITLAB_TOKEN (a project or personal access token with `api` scope),
# and GitLab's CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID. Needs curl and jq
# (installed with apt when missing and possible).
# Exit codes: 0 posted or updated, 2 bad usage, 4 the API refused or is unreachable.
set -euo pipefail
marker="<!-- cgbench-comment -->"

die() { echo "cgbench-gitlab-note: error: $2" >&2; exit "$1"; }

[ $# -eq 1 ] && [ -f "$1" ] || die 2 "usage: cgbench-gitlab-note.sh FILE (a Markdown file)"
file="$1"
for var in CGBENCH_GITLAB_TOKEN CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID; do
  [ -n "${!var:-}" ] || die 2 "$var is not set (a merge-request pipeline with a token sets it)"
done

if ! command -v curl >/dev/null || ! command -v jq >/dev/null; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "cgbench-gitlab-note: installing curl and jq" >&2
  { "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
      curl jq ca-certificates >/dev/null; } || die 4 "curl and jq are needed (install them in the job's image)"
fi

api() { # METHOD PATH [curl args...]
  local method="$1" path="$2"
  shift 2
  curl -sS --fail-with-body -X "$method" --header "PRIVATE-TOKEN: $CGBENCH_GITLAB_TOKEN" \
    "$CI_API_V4_URL$path" "$@" ||
    die 4 "GitLab refused $method $path (does the token have api scope and access to the project?)"
}

notes="/projects/$CI_PROJECT_ID/merge_requests/$CI_MERGE_REQUEST_IID/notes"
me="$(api GET /user | jq -r '.id')"
[[ "$me" =~ ^[0-9]+$ ]] || die 4 "GitLab did not say who the token belongs to"

# The note this token's user wrote with the marker, on any page of the notes.
existing=""
for page in $(seq 1 50); do
  batch="$(api GET "$notes?per_page=100&page=$page&sort=asc&order_by=created_at")"
  [ "$(jq 'length' <<<"$batch")" -gt 0 ] || break
  existing="$(jq -r --argjson me "$me" --arg marker "$marker" \
    '[.[] | select(.author.id == $me and (.body | startswith($marker)))][0].id // empty' <<<"$batch")"
  [ -z "$existing" ] || break
done

body="$(jq -Rs --arg marker "$marker" '{body: ($marker + "\n" + .)}' <"$file")"
if [ -n "$existing" ]; then
  api PUT "$notes/$existing" --header "Content-Type: application/json" --data "$body" >/dev/null
  echo "cgbench-gitlab-note: updated note $existing on !$CI_MERGE_REQUEST_IID" >&2
else
  api POST "$notes" --header "Content-Type: application/json" --data "$body" >/dev/null
  echo "cgbench-gitlab-note: posted a note on !$CI_MERGE_REQUEST_IID" >&2
fi
