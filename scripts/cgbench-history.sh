#!/usr/bin/env bash
# A history that lasts without a server: result files on a dedicated branch of the
# repository (one file per run, never edited, so concurrent pushes never touch the same file:
# a push that lost the race is rebased by fetching and retrying), from which the SQLite
# database is rebuilt whenever it is needed. Run from a clone whose `origin` may be pushed to
# (in CI: a job with write access to the repository).
set -euo pipefail
shopt -s inherit_errexit

usage() {
  cat <<'EOF'
usage: cgbench-history.sh pull BRANCH DB
       cgbench-history.sh push BRANCH FILE...

  pull BRANCH DB     fetch BRANCH from origin and rebuild the history database DB from its
                     result files (`cgbench import`; runs already in DB are kept once). A
                     branch that does not exist yet gives an empty history. A file on the
                     branch that is no valid result file (or one of a newer cgbench), and
                     anything but a regular file (a symbolic link), is named and skipped; the
                     other runs are imported.
  push BRANCH FILE   add the result files to BRANCH as runs/<run id>.json, in one new commit
                     on top of origin's BRANCH (created when missing), and push it; when
                     another job pushed first, fetch and try again after a random pause
                     that grows each time (up to 10 attempts). The work tree, the index and
                     the checked-out branch are not touched.

Environment: CGBENCH (the cgbench binary, else next to this script, else PATH),
CGBENCH_HISTORY_REMOTE (the remote, default origin).
Exit codes: 0 done, 2 bad usage or a file that is no result file (push), 4 git or
cgbench failed (no such remote, no permission to push, still rejected after 10 attempts,
the database cannot be written).
EOF
}

die() { echo "cgbench-history: error: $2" >&2; exit "$1"; }
say() { echo "cgbench-history: $*" >&2; }

find_cgbench() {
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if [ -n "${CGBENCH:-}" ]; then echo "$CGBENCH"
  elif [ -x "$here/cgbench" ]; then echo "$here/cgbench"
  elif [ -x "$here/../build/src/cgbench" ]; then echo "$here/../build/src/cgbench"
  elif command -v cgbench >/dev/null; then command -v cgbench
  else die 4 "cgbench not found (set CGBENCH=PATH or put it on PATH)"
  fi
}

remote="${CGBENCH_HISTORY_REMOTE:-origin}"

# Fetches BRANCH into refs/cgbench-history/BRANCH; false when the remote has no such branch.
fetch() { # BRANCH
  git ls-remote --exit-code --heads "$remote" "$1" >/dev/null 2>&1 || return 1
  git fetch --quiet --no-tags "$remote" "+refs/heads/$1:refs/cgbench-history/$1" ||
    die 4 "cannot fetch $1 from $remote"
}

pull() { # BRANCH DB
  local branch="$1" db="$2" dir
  git rev-parse --git-dir >/dev/null 2>&1 || die 2 "not in a git checkout"
  dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-history.XXXXXX")"
  trap 'rm -rf "$dir"' RETURN
  mkdir -p "$dir/runs"
  if fetch "$branch"; then
    git archive --format=tar "refs/cgbench-history/$branch" runs 2>/dev/null |
      tar -x --no-same-owner --no-same-permissions -C "$dir" ||
      true  # a branch without runs/ yet
  else
    say "$remote has no branch $branch yet: starting an empty history"
  fi
  # Anyone who can push to the branch chooses its files: only regular files are read (a
  # symbolic link runs/x.json -> /etc/shadow would have cgbench read that file).
  local entry
  while IFS= read -r -d '' entry; do
    say "skipped ${entry#"$dir/"} on $branch: not a regular file"
    rm -f "$entry"
  done < <(find "$dir/runs" ! -type f ! -type d -print0)
  mkdir -p "$(dirname "$db")"
  local code=0
  "$(find_cgbench)" import -q --db "$db" "$dir/runs" || code=$?
  # 2: some files are no valid result files (named above by cgbench) and were skipped; the
  # others are in. One such file must not fail the pull of every later job.
  if [ "$code" -eq 2 ]; then
    say "some files of $branch are no valid result files (named above) and were skipped"
  elif [ "$code" -ne 0 ]; then
    die "$code" "cannot rebuild $db from the result files of $branch"
  fi
  say "$db holds the $(find "$dir/runs" -type f -name '*.json' | wc -l) result files of $branch"
}

# The identity of the history commits: the CI's bot when there is one, else git's own.
identity() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then
    export GIT_AUTHOR_NAME="github-actions[bot]"
    export GIT_AUTHOR_EMAIL="41898282+github-actions[bot]@users.noreply.github.com"
  elif [ -n "${GITLAB_USER_LOGIN:-}" ]; then
    export GIT_AUTHOR_NAME="${GITLAB_USER_NAME:-$GITLAB_USER_LOGIN}"
    export GIT_AUTHOR_EMAIL="${GITLAB_USER_EMAIL:-$GITLAB_USER_LOGIN@users.noreply.gitlab.com}"
  fi
  GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-$(git config user.name || echo cgbench)}"
  GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-$(git config user.email || echo cgbench@localhost)}"
  export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
  export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
}

# The run id of a result file, checked to be one (cgbench reads it as compare would).
run_id_of() { # FILE
  local id
  "$(find_cgbench)" export --no-db --format github-action-benchmark "$1" >/dev/null ||
    die 2 "$1 is not a result file"
  # The first key of "run" is its id, in cgbench's files as written, pretty or compact.
  id="$(tr -d '\n' <"$1" | grep -o '"run": *{ *"id": *"[^"]*"' | head -n 1 | sed 's/.*"\([^"]*\)"$/\1/')"
  [[ "$id" =~ ^[A-Za-z0-9._-]+$ ]] || die 2 "$1 has no usable run id ('$id')"
  echo "$id"
}

# One commit adding the FILES as runs/IDS.json on top of PARENT (empty: a first commit),
# built in a private index.
commit_runs() { # PARENT COUNT FILE... ID...
  local parent="$1" count="$2" index tree i blob
  shift 2
  local -a files=("${@:1:count}") ids=("${@:count+1}")
  index="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-index.XXXXXX")"
  rm -f "$index"
  if [ -n "$parent" ]; then GIT_INDEX_FILE="$index" git read-tree "$parent"; fi
  for i in "${!files[@]}"; do
    blob="$(git hash-object -w -- "${files[i]}")"
    GIT_INDEX_FILE="$index" git update-index --add --cacheinfo "100644,$blob,runs/${ids[i]}.json"
  done
  tree="$(GIT_INDEX_FILE="$index" git write-tree)"
  rm -f "$index"
  git commit-tree "$tree" ${parent:+-p "$parent"} \
    -m "cgbench: $count run(s) of $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
}

push() { # BRANCH FILE...
  local branch="$1" attempt parent commit
  shift
  [ $# -gt 0 ] || die 2 "push needs result files"
  git rev-parse --git-dir >/dev/null 2>&1 || die 2 "not in a git checkout"
  # Every file is checked before anything is fetched, committed or pushed.
  local -a ids=()
  local file id
  for file in "$@"; do
    id="$(run_id_of "$file")" || exit $?
    ids+=("$id")
  done
  identity
  local attempts=10 errors
  for attempt in $(seq 1 "$attempts"); do
    parent=""
    if fetch "$branch"; then parent="$(git rev-parse "refs/cgbench-history/$branch")"; fi
    commit="$(commit_runs "$parent" $# "$@" "${ids[@]}")"
    # git's messages are kept in a variable: no file at a name another user can predict.
    if errors="$(git push --quiet "$remote" "$commit:refs/heads/$branch" 2>&1 >/dev/null)"; then
      say "added $# run(s) to $branch (${commit:0:10})"
      return 0
    fi
    if ! grep -qiE "rejected|non-fast-forward|fetch first|cannot lock ref|failed to update ref" \
        <<<"$errors"; then
      printf '%s\n' "$errors" >&2
      die 4 "cannot push to $branch on $remote (does the job have write access to the repository?)"
    fi
    say "$branch moved while adding the run (attempt $attempt); trying again"
    backoff "$attempt"
  done
  die 4 "$branch kept moving: the run was not added after $attempts attempts"
}

# Sleeps a random time of up to 2^ATTEMPT / 4 seconds (at most 8 s): jobs that collided do
# not retry in step, and the pause grows while the branch stays busy.
backoff() { # ATTEMPT
  local cap=$(( (1 << $1) * 250 ))
  (( cap > 8000 )) && cap=8000
  local ms=$(( (RANDOM * 32768 + RANDOM) % cap + 100 ))
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  pull) [ $# -eq 3 ] || { usage >&2; exit 2; }; pull "$2" "$3" ;;
  push) [ $# -ge 3 ] || { usage >&2; exit 2; }; shift; push "$@" ;;
  -h|--help) usage ;;
  *) usage >&2; exit 2 ;;
esac
