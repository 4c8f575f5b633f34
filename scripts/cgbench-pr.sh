#!/usr/bin/env bash
# The pull-request baseline, done in one job: measures the merge base of HEAD with --base
# and the work tree as it is, with the same build command and the same suite, then compares
# them with `cgbench compare`. Counts are deterministic, so no stored state is needed. The
# GitHub action (ci/github/action.yml) and the GitLab template (ci/gitlab/) both call it;
# locally: scripts/cgbench-pr.sh --base origin/main --build 'make -C build'.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: cgbench-pr.sh [OPTIONS]
       cgbench-pr.sh --report-only [--out-dir DIR] [--threshold T]

Measures the merge base of HEAD with BASE (checked out in a temporary git worktree) and
the current work tree, each built with --build, runs the same suite in both, and writes
the comparison. Run it from the directory that holds the suite (or pass --suite).

  --base REF          compare against the merge base of HEAD with REF (e.g. origin/main);
                      default: origin/$GITHUB_BASE_REF, else $CI_MERGE_REQUEST_DIFF_BASE_SHA;
                      without any of them only HEAD is measured (history mode)
  --build CMD         build command, run with bash in the checkout's working directory
                      (the same relative directory in the base worktree)
  --suite FILE        suite file, relative to the working directory [cgbench.toml]
  --command CMD       measure this one command instead of a suite (shell words; --name sets
                      the benchmark name)
  --name NAME         benchmark name for --command [the command]
  --threshold T       compare thresholds, as `cgbench compare --threshold` [cost=1%|1000]
  --out-dir DIR       where the files go [cgbench-pr]
  --shard K/N         measure shard K of N only (writes base-K.json, head-K.json; no report:
                      run --report-only on the collected shard files)
  --report-only       join OUT-DIR/{base,head}-*.json shards if present, then report
  --history DB        also record HEAD's run in this history database (default-branch runs)
  --keep-raw          keep Valgrind's raw files under OUT-DIR/raw-{base,head}
  -h, --help          this text

Files in OUT-DIR: base.json, head.json (results), report.md (Markdown), report.xml (JUnit),
compare.json, metrics.txt (OpenMetrics), summary.txt (one line), exit-code. Without a
base: head.json, report.md (the run's table) and metrics.txt.
cgbench is taken from $CGBENCH, else next to this script, else the build directory of the
checkout this script belongs to, else PATH.

Exit codes: 0 no regression, 1 regression or a benchmark failing in HEAD only (the gate of
`cgbench compare`), 2 bad usage or input, 3 a build failed (or, without a base, a
benchmark), 4 environment error (git, Valgrind, database).
EOF
}

die() { # CODE MESSAGE
  echo "cgbench-pr: error: $2" >&2
  exit "$1"
}

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

base="" build="" suite="" command_line="" name="" threshold="" out_dir="cgbench-pr"
shard="" report_only=0 history="" keep_raw=0
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
if [ -z "$base" ]; then
  if [ -n "${GITHUB_BASE_REF:-}" ]; then
    base="origin/$GITHUB_BASE_REF"
  elif [ -n "${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}" ]; then
    base="$CI_MERGE_REQUEST_DIFF_BASE_SHA"
  fi
fi

cgbench="$(find_cgbench)"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

# The cgbench run arguments shared by base and head (without --out and database options).
run_args=()
if [ -n "$command_line" ]; then
  eval "words=($command_line)"
  [ -n "$name" ] && run_args+=(--name "$name")
  run_args+=(-- "${words[@]}")
else
  run_args+=(--suite "${suite:-cgbench.toml}")
fi
shard_args=()
suffix=""
if [ -n "$shard" ]; then
  shard_args=(--shard "$shard")
  suffix="-${shard%/*}"
fi

build_in() { # DIR LABEL
  [ -z "$build" ] && return 0
  echo "cgbench-pr: building $2: $build" >&2
  if ! (cd "$1" && bash -c "$build"); then
    die 3 "the build command failed for $2 (fix the build, or check --build)"
  fi
}

measure_in() { # DIR SIDE [DB ARGS...]
  local dir="$1" side="$2"
  shift 2
  local raw=()
  [ "$keep_raw" -eq 1 ] && raw=(--keep-raw "$out_dir/raw-$side$suffix")
  echo "cgbench-pr: measuring $side in $dir" >&2
  local code=0
  (cd "$dir" && "$cgbench" run "${shard_args[@]}" --out "$out_dir/$side$suffix.json" \
      "${raw[@]}" "$@" "${run_args[@]}") || code=$?
  # Exit 3 with a result file: some benchmarks failed and are recorded as failed; the
  # comparison judges them (failing in HEAD fails the gate, failing in both does not).
  if [ "$code" -eq 3 ] && [ -f "$out_dir/$side$suffix.json" ]; then
    echo "cgbench-pr: warning: a benchmark failed in the $side (recorded; compare judges it)" >&2
  elif [ "$code" -ne 0 ]; then
    exit "$code"
  fi
}

measure_both() {
  local head_dir prefix merge_base
  head_dir="$(pwd)"
  top="$(git rev-parse --show-toplevel 2>/dev/null)" ||
    die 2 "$head_dir is not in a git checkout (run from the repository, or pass no --base)"
  prefix="$(git rev-parse --show-prefix)"
  merge_base="$(git merge-base HEAD "$base" 2>/dev/null)" ||
    die 2 "no merge base of HEAD with '$base' (fetch it: git fetch origin, or use fetch-depth: 0)"
  echo "cgbench-pr: base is the merge base of HEAD with $base: $merge_base" >&2
  echo "$merge_base" >"$out_dir/base-commit"

  worktree="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cgbench-base.XXXXXX")"
  trap 'git -C "$top" worktree remove --force "$worktree" >/dev/null 2>&1 || rm -rf "$worktree"' EXIT
  git -C "$top" worktree add --quiet --detach "$worktree" "$merge_base" ||
    die 4 "cannot check out $merge_base in a worktree at $worktree"
  if [ -f "$worktree/.gitmodules" ]; then
    git -C "$worktree" submodule --quiet update --init --recursive ||
      die 4 "cannot check out the submodules of $merge_base (check access to them)"
  fi
  build_in "$worktree/$prefix" "the base ($merge_base)"
  measure_in "$worktree/$prefix" base --no-db
  build_in "$head_dir" "the head"
  local db=(--no-db)
  [ -n "$history" ] && db=(--db "$history")
  measure_in "$head_dir" head "${db[@]}"
}

measure_head_only() {
  build_in "$(pwd)" "the head"
  local db=(--no-db)
  [ -n "$history" ] && db=(--db "$history")
  echo "cgbench-pr: no --base: measuring HEAD only" >&2
  measure_in "$(pwd)" head "${db[@]}" --format markdown >"$out_dir/report.md"
  "$cgbench" export "$out_dir/head.json" --no-db --format openmetrics --out "$out_dir/metrics.txt"
}

join_shards() { # SIDE
  local shards=("$out_dir/$1"-*.json)
  if [ ! -e "$out_dir/$1.json" ] && [ -e "${shards[0]}" ]; then
    "$cgbench" merge -q --no-db --out "$out_dir/$1.json" "${shards[@]}"
  fi
  [ -e "$out_dir/$1.json" ] || die 2 "no $1 result in $out_dir (run the measuring step first)"
}

report() {
  join_shards base
  join_shards head
  local gate=()
  [ -n "$threshold" ] && gate=(--threshold "$threshold")
  local base_json="$out_dir/base.json" head_json="$out_dir/head.json" code=0
  "$cgbench" compare --no-db "${gate[@]}" --format markdown --out "$out_dir/report.md" \
    "$base_json" "$head_json" >"$out_dir/summary.txt" || code=$?
  if [ "$code" -gt 1 ]; then
    cat "$out_dir/summary.txt" >&2
    exit "$code"
  fi
  "$cgbench" compare -q --no-db "${gate[@]}" --format junit --out "$out_dir/report.xml" \
    "$base_json" "$head_json" || true
  "$cgbench" compare -q --no-db "${gate[@]}" --format json --out "$out_dir/compare.json" \
    "$base_json" "$head_json" || true
  "$cgbench" export "$head_json" --no-db --format openmetrics --out "$out_dir/metrics.txt"
  echo "$code" >"$out_dir/exit-code"
  cat "$out_dir/summary.txt"
  echo "cgbench-pr: report in $out_dir/report.md" >&2
  exit "$code"
}

if [ "$report_only" -eq 1 ]; then
  report
elif [ -z "$base" ]; then
  measure_head_only
elif [ -n "$shard" ]; then
  measure_both
else
  measure_both
  report
fi
