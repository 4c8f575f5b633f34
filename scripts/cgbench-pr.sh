#!/usr/bin/env bash
# The pull-request baseline, done in one job: measures the merge base of HEAD with --base
# and the work tree as it is, with the same build command and the same suite, then compares
# them with `cgbench compare`. Counts are deterministic, so no stored state is needed. On a
# branch push (no base) it measures HEAD and compares it with the branch's previous run in
# the history database. The GitHub action (ci/github/action.yml) and the GitLab template
# (ci/gitlab/) both call it; locally: scripts/cgbench-pr.sh --base origin/main --build 'make'.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: cgbench-pr.sh [OPTIONS]
       cgbench-pr.sh --report-only [--out-dir DIR] [--threshold T] [--warn-only]

Measures the merge base of HEAD with BASE (checked out in a temporary git worktree) and
the current work tree, each built with --build, runs the same suite in both, and writes
the comparison. Run it from the directory that holds the suite (or pass --suite).

  --base REF          compare against the merge base of HEAD with REF (e.g. origin/main);
                      default in CI: origin/$GITHUB_BASE_REF (GitHub pull requests),
                      $CI_MERGE_REQUEST_TARGET_BRANCH_SHA (GitLab merged results and merge
                      trains), $CI_MERGE_REQUEST_DIFF_BASE_SHA (other GitLab merge requests);
                      without any of them only HEAD is measured (branch mode, below)
  --build CMD         build command, run with bash in the checkout's working directory
                      (the same relative directory in the base worktree)
  --suite FILE        suite file, relative to the working directory [cgbench.toml]
  --command CMD       measure this one command instead of a suite (shell words; --name sets
                      the benchmark name)
  --name NAME         benchmark name for --command [the command]
  --threshold T       the gate, e.g. 2% or cost=1%|1000,Ir=0.5% (checked before anything
                      is built; the grammar of `cgbench config threshold`) [cost=1%|1000]
  --out-dir DIR       where the files go [cgbench-pr]
  --shard K/N         measure shard K of N only (writes base-K.json, head-K.json; no report:
                      run --report-only on the collected shard files)
  --report-only       join OUT-DIR/{base,head}-*.json shards if present, then report
  --history DB        record HEAD's run in this history database; in branch mode, compare
                      it with the previous run of its branch stored there
  --warn-only         report regressions and failed benchmarks, but exit 0 (exit-code in
                      OUT-DIR keeps the verdict)
  --keep-raw          keep Valgrind's raw files under OUT-DIR/raw-{base,head}
  -h, --help          this text

No baseline: when the merge base has no suite file (the pull request that adds cgbench),
every benchmark is reported as added and the gate passes, with a note saying why.
New benchmarks (those the base lacks, every one without a baseline) are measured 3 times
(or as their suite 'verify' says) and fail unless the 3 give the same counts.
Base and head give the same counts for the same code: cgbench runs both at the same fixed
paths (the checkout at /cgbench/tree), whichever directory they are checked out in.
Branch mode (no base, e.g. a push to main): HEAD is measured; with --history it is compared
with the branch's previous stored run (none yet: no baseline), and a benchmark that fails
fails the run (exit 3) as a regression does (exit 1).

Files in OUT-DIR: base.json, head.json (results), report.md (Markdown), report.xml (JUnit),
compare.json, console.txt (the comparison as printed), metrics.txt (OpenMetrics),
summary.txt (one line), exit-code, base-commit; no-baseline (the reason) when there is none.
cgbench is taken from $CGBENCH, else next to this script, else the build directory of the
checkout this script belongs to, else PATH.

Exit codes: 0 no regression, 1 regression or a benchmark failing in HEAD only (the gate of
`cgbench compare`), 2 bad usage or input, 3 a build failed, a side measured nothing, or (in
branch mode) a benchmark failed, 4 environment error (git, Valgrind, database).
EOF
}

die() { # CODE MESSAGE
  echo "cgbench-pr: error: $2" >&2
  exit "$1"
}

say() { echo "cgbench-pr: $*" >&2; }

find_cgbench() {
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if [ -n "${CGBENCH:-}" ]; then
    echo "$CGBENCH"
  elif [ -x "$here/cgbench" ]; then
    echo "$here/cgbench"
  elif [ -x "$here/../build/src/cgbench" ]; then
    echo "$here/../build/src/cgbench"
  elif command -v cgbench >/dev/null; then
    command -v cgbench
  else
    die 4 "cgbench not found (set CGBENCH=PATH, put it on PATH, or run scripts/build.sh)"
  fi
}

base="" base_branch="" build="" suite="" command_line="" name="" threshold=""
out_dir="cgbench-pr" shard="" report_only=0 history="" keep_raw=0 warn_only=0
top="" worktree=""
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="${2?--base needs a ref}"; shift 2 ;;
    --build) build="${2?--build needs a command}"; shift 2 ;;
    --suite) suite="${2?--suite needs a file}"; shift 2 ;;
    --command) command_line="${2?--command needs a command}"; shift 2 ;;
    --name) name="${2?--name needs a name}"; shift 2 ;;
    --threshold) threshold="${2?--threshold needs a value}"; shift 2 ;;
    --out-dir) out_dir="${2?--out-dir needs a directory}"; shift 2 ;;
    --shard) shard="${2?--shard needs K/N}"; shift 2 ;;
    --report-only) report_only=1; shift ;;
    --history) history="${2?--history needs a file}"; shift 2 ;;
    --warn-only) warn_only=1; shift ;;
    --keep-raw) keep_raw=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die 2 "unknown argument '$1' (see cgbench-pr.sh --help)" ;;
  esac
done
if [ -n "$suite" ] && [ -n "$command_line" ]; then
  die 2 "--suite and --command exclude each other (pass one)"
fi
if [ -n "$shard" ] && ! [[ "$shard" =~ ^[0-9]+/[0-9]+$ ]]; then
  die 2 "--shard '$shard' is not K/N (e.g. --shard 1/2)"
fi

# The base in CI, and the branch it stands for (what the base run records and is called).
# GitLab's merged-results pipelines and merge trains check out the merge of the source into
# the target's tip: comparing with the old merge base (CI_MERGE_REQUEST_DIFF_BASE_SHA) would
# charge the merge request with every change that landed on the target since.
if [ -z "$base" ]; then
  if [ -n "${GITHUB_BASE_REF:-}" ]; then
    base="origin/$GITHUB_BASE_REF"
    base_branch="$GITHUB_BASE_REF"
  elif [ -n "${CI_MERGE_REQUEST_TARGET_BRANCH_SHA:-}" ]; then
    base="$CI_MERGE_REQUEST_TARGET_BRANCH_SHA"
    base_branch="${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}"
  elif [ -n "${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}" ]; then
    base="$CI_MERGE_REQUEST_DIFF_BASE_SHA"
    base_branch="${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}"
  fi
fi

cgbench="$(find_cgbench)"
# Every threshold the gate will read, checked before anything is built or measured.
if [ -n "$threshold" ]; then
  "$cgbench" config threshold "$threshold" >/dev/null || exit 2
elif [ -n "${CGBENCH_THRESHOLD:-}" ]; then
  "$cgbench" config threshold >/dev/null || exit 2
fi
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
# The verdict files of an earlier run never survive into this one.
(cd "$out_dir" && rm -f exit-code summary.txt report.md report.xml compare.json console.txt metrics.txt)

# The cgbench run arguments shared by base and head (without --out and database options).
run_args=()
if [ -n "$command_line" ]; then
  eval "words=($command_line)"
  [ -n "$name" ] && run_args+=(--name "$name")
  run_args+=(-- "${words[@]}")
else
  suite="${suite:-cgbench.toml}"
  run_args+=(--suite "$suite")
fi
shard_args=()
suffix=""
if [ -n "$shard" ]; then
  shard_args=(--shard "$shard")
  suffix="-${shard%/*}"
fi

build_in() { # DIR LABEL
  [ -z "$build" ] && return 0
  say "building $2: $build"
  if ! (cd "$1" && bash -c "$build"); then
    die 3 "the build command failed for $2 (fix the build, or check --build)"
  fi
}

# Measures SIDE in DIR into OUT-DIR/SIDE[-K].json. The previous file goes first, so a run
# that writes none can never leave an older result to be compared. Sets measured_code: 3
# when some benchmarks failed (they are in the file, marked failed).
measured_code=0
measure_in() { # DIR SIDE [RUN ARGS...]
  local dir="$1" side="$2"
  shift 2
  local result="$out_dir/$side$suffix.json" raw=() code=0
  [ "$keep_raw" -eq 1 ] && raw=(--keep-raw "$out_dir/raw-$side$suffix")
  # Nothing of an earlier run may be joined or compared: not this file, not the joined one,
  # not the shards of an unsharded run.
  rm -f "$result" "$out_dir/$side.json"
  [ -n "$suffix" ] || rm -f "$out_dir/$side"-[0-9]*.json
  say "measuring the $side"
  (cd "$dir" && "$cgbench" run "${shard_args[@]}" --out "$result" "${raw[@]}" "$@" \
      "${run_args[@]}") || code=$?
  if [ ! -f "$result" ]; then
    [ "$code" -eq 0 ] || [ "$code" -eq 3 ] || exit "$code"
    die 3 "the $side measured nothing (every benchmark failed; see above)"
  fi
  measured_code="$code"
  # Exit 3 with a result file: some benchmarks failed and are recorded as failed; the
  # comparison judges them (failing in HEAD fails the gate, failing in both does not).
  if [ "$code" -eq 3 ]; then
    say "warning: a benchmark failed in the $side (recorded as failed; the gate judges it)"
  elif [ "$code" -ne 0 ]; then
    exit "$code"
  fi
}

# The branch the base stands for: the one CI named, else what REF names ("origin/main").
name_base_branch() {
  [ -n "$base_branch" ] && return 0
  local ref="$base" strip
  for strip in refs/remotes/origin/ refs/heads/ refs/remotes/ origin/; do ref="${ref#"$strip"}"; done
  if git show-ref --verify --quiet "refs/heads/$ref" ||
     git show-ref --verify --quiet "refs/remotes/origin/$ref"; then
    base_branch="$ref"
  fi
}

# Why the base has no baseline, or nothing: it lacks the suite file (checked after its
# build, which may generate the suite).
missing_suite() { # BASE_DIR COMMIT
  [ -z "$command_line" ] && [ ! -f "$1/$suite" ] &&
    echo "the merge base ${2:0:10} has no $suite"
  return 0
}

measure_both() {
  local head_dir prefix merge_base why
  head_dir="$(pwd)"
  top="$(git rev-parse --show-toplevel 2>/dev/null)" ||
    die 2 "$head_dir is not in a git checkout (run from the repository, or pass no --base)"
  prefix="$(git rev-parse --show-prefix)"
  merge_base="$(git merge-base HEAD "$base" 2>/dev/null)" ||
    die 2 "no merge base of HEAD with '$base' (fetch it: git fetch origin, or use fetch-depth: 0)"
  name_base_branch
  say "base is the merge base of HEAD with $base${base_branch:+ ($base_branch)}: $merge_base"
  echo "$merge_base" >"$out_dir/base-commit"
  echo "merge base with ${base_branch:-$base}" >"$out_dir/base-label"
  rm -f "$out_dir/no-baseline"

  worktree="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-base.XXXXXX")"
  trap 'git -C "$top" worktree remove --force "$worktree" >/dev/null 2>&1 || rm -rf "$worktree"' EXIT
  git -C "$top" worktree add --quiet --detach "$worktree" "$merge_base" ||
    die 4 "cannot check out $merge_base in a worktree at $worktree"
  if [ -f "$worktree/.gitmodules" ]; then
    git -C "$worktree" submodule --quiet update --init --recursive ||
      die 4 "cannot check out the submodules of $merge_base (check access to them)"
  fi
  # A suite file git tracks here and the base lacks: no need to build the base at all.
  why=""
  if [ -z "$command_line" ] && git ls-files --error-unmatch -- "$suite" >/dev/null 2>&1; then
    why="$(missing_suite "$worktree/$prefix" "$merge_base")"
  fi
  if [ -z "$why" ]; then
    build_in "$worktree/$prefix" "the base ($merge_base)"
    why="$(missing_suite "$worktree/$prefix" "$merge_base")"
  fi
  if [ -n "$why" ]; then
    say "no baseline: $why; every benchmark will be reported as added"
    echo "$why" >"$out_dir/no-baseline"
    rm -f "$out_dir/base$suffix.json"
  else
    # The base run records the base's branch, not the one CI checked out for HEAD.
    CGBENCH_BRANCH="$base_branch" GITHUB_HEAD_REF="" GITHUB_REF_NAME="" CI_COMMIT_REF_NAME="" \
      measure_in "$worktree/$prefix" base --no-db
  fi
  build_in "$head_dir" "the head"
  local db=(--no-db) verify=(--verify 3)
  [ -n "$history" ] && db=(--db "$history")
  # A benchmark the base lacks is new: measured 3 times, it must repeat before it gates.
  [ -f "$out_dir/base$suffix.json" ] && verify=(--verify-new "$out_dir/base$suffix.json")
  measure_in "$head_dir" head "${db[@]}" "${verify[@]}"
}

join_shards() { # SIDE
  local shards=("$out_dir/$1"-*.json)
  if [ -e "${shards[0]}" ]; then
    rm -f "$out_dir/$1.json"
    "$cgbench" merge -q --no-db --out "$out_dir/$1.json" "${shards[@]}"
  fi
  [ -e "$out_dir/$1.json" ] || die 2 "no $1 result in $out_dir (run the measuring step first)"
}

# Exit with CODE, or 0 with a warning under --warn-only. Exit 3 (a benchmark failed in
# branch mode) is said in summary.txt too.
finish() { # CODE WHAT
  echo "$1" >"$out_dir/exit-code"
  if [ "$1" -eq 3 ]; then
    echo "FAIL  $2 ($(sed 's/^[A-Z]*  //' "$out_dir/summary.txt"))" >"$out_dir/summary.txt"
  fi
  if [ "$1" -ne 0 ] && [ "$warn_only" -eq 1 ]; then
    say "warning: $2 (--warn-only: exit 0 instead of $1)"
    exit 0
  fi
  exit "$1"
}

# Writes every report of `cgbench compare BASE_ARGS... head.json` (in OUT-DIR, so no report
# names a path) and prints the console one. Sets gate_code (0 or 1); other codes exit.
# BASE_ARGS: base.json, --previous or --no-baseline WHY.
gate_code=0
report() { # BASE_ARGS...
  local gate=() labels=(--head-label HEAD) code=0
  [ -n "$threshold" ] && gate=(--threshold "$threshold")
  [ -f "$out_dir/base-label" ] && labels+=(--base-label "$(cat "$out_dir/base-label")")
  cd "$out_dir"
  "$cgbench" compare "${db_args[@]}" "${gate[@]}" "${labels[@]}" --format markdown \
    --out report.md "$@" head.json >summary.txt || code=$?
  if [ "$code" -gt 1 ]; then
    cat summary.txt >&2
    exit "$code"
  fi
  for format in junit:report.xml json:compare.json; do
    "$cgbench" compare -q "${db_args[@]}" "${gate[@]}" "${labels[@]}" \
      --format "${format%%:*}" --out "${format#*:}" "$@" head.json || true
  done
  "$cgbench" compare "${db_args[@]}" "${gate[@]}" "${labels[@]}" "$@" head.json \
    >console.txt 2>&1 || true
  "$cgbench" export head.json --no-db --format openmetrics --out metrics.txt
  cat console.txt
  say "report in $out_dir/report.md"
  gate_code="$code"
}

report_pr() {
  join_shards head
  db_args=(--no-db)
  if [ -f "$out_dir/no-baseline" ]; then
    rm -f "$out_dir/base.json"
    report --no-baseline "$(cat "$out_dir/no-baseline")"
  else
    join_shards base
    report base.json
  fi
  finish "$gate_code" "$(cat "$out_dir/summary.txt")"
}

# Branch mode: HEAD alone, compared with the branch's previous stored run when there is a
# history; a benchmark that fails fails the run (exit 3), a regression too (exit 1).
measure_branch() {
  build_in "$(pwd)" "the head"
  rm -f "$out_dir/base-commit" "$out_dir/base.json" "$out_dir/no-baseline" "$out_dir/base-label"
  if [ -n "$history" ]; then
    mkdir -p "$(dirname "$history")"
    history="$(cd "$(dirname "$history")" && pwd)/$(basename "$history")"
    say "no base: measuring HEAD, then comparing it with the previous run of its branch in $history"
    measure_in "$(pwd)" head --db "$history"
    db_args=(--db "$history")
    report --previous
  else
    say "no base and no history database: measuring HEAD only"
    measure_in "$(pwd)" head --no-db
    db_args=(--no-db)
    report --no-baseline "no history database to compare with (cgbench-pr --history DB)"
  fi
  if [ "$measured_code" -eq 3 ]; then
    finish 3 "a benchmark failed in HEAD"
  fi
  finish "$gate_code" "$(cat "$out_dir/summary.txt")"
}

db_args=(--no-db)
if [ "$report_only" -eq 1 ]; then
  report_pr
elif [ -z "$base" ]; then
  measure_branch
elif [ -n "$shard" ]; then
  measure_both
else
  measure_both
  report_pr
fi
