#!/usr/bin/env bash
# scripts/cgbench-history.sh: the history kept as result files on a branch of the repository.
#   concurrent: two jobs add a run each to the branch at the same moment (the second one's
#               push is made to lose the race with a pre-push hook): both runs land, in two
#               commits, and neither job's work tree, index or HEAD is touched
#   rebuild:    a third clone rebuilds the database from the branch (`cgbench import`): both
#               runs, with their results; pulling again adds nothing
#   first use:  a repository without the branch gives an empty history; the first push
#               creates the branch
#   bad input:  a file that is no result file is refused before anything is pushed
# Usage: test_history_branch.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
scratch="$(ci_scratch "$build" history-branch)"
export CGBENCH="$build/src/cgbench"
history="$ci_root/scripts/cgbench-history.sh"

ci_make_repo "$scratch" same
for job in a b reader; do
  git clone -q "$scratch/origin.git" "$scratch/$job"
  git -C "$scratch/$job" config user.email ci-test@example.invalid
  git -C "$scratch/$job" config user.name "cgbench CI test"
done
# One measured run per job (the same suite, measured twice: two run ids).
(cd "$scratch/work" && ./build.sh && "$CGBENCH" run -q --no-db --suite cgbench.toml --out "$scratch/run-a.json" &&
  "$CGBENCH" run -q --no-db --suite cgbench.toml --out "$scratch/run-b.json") >"$scratch/measure.log" 2>&1 ||
  { cat "$scratch/measure.log" >&2; fail "measuring failed"; }
id_of() { sed -n 's/.*"run": *{ *"id": *"\([^"]*\)".*/\1/p; s/^ *"id": *"\([^"]*\)",*$/\1/p' "$1" | head -n 1; }
id_a="$(id_of "$scratch/run-a.json")"
id_b="$(id_of "$scratch/run-b.json")"
[ -n "$id_a" ] && [ -n "$id_b" ] && [ "$id_a" != "$id_b" ] || fail "no two run ids ($id_a, $id_b)"

# First use: no branch yet.
(cd "$scratch/a" && "$history" pull cgbench-data "$scratch/empty.db") 2>"$scratch/pull-empty.log" ||
  { cat "$scratch/pull-empty.log" >&2; fail "pull of a missing branch failed"; }
expect_contains "$scratch/pull-empty.log" "origin has no branch cgbench-data yet"

# Concurrent: job b's pre-push hook lets job a push first, so b's first push is rejected.
cat >"$scratch/b/.git/hooks/pre-push" <<SH
#!/usr/bin/env bash
if [ ! -e "$scratch/raced" ]; then
  touch "$scratch/raced"
  (cd "$scratch/a" && "$history" push cgbench-data "$scratch/run-a.json") || exit 1
fi
SH
chmod +x "$scratch/b/.git/hooks/pre-push"
head_b="$(git -C "$scratch/b" rev-parse HEAD)"
(cd "$scratch/b" && "$history" push cgbench-data "$scratch/run-b.json") >"$scratch/push-b.log" 2>&1 ||
  { cat "$scratch/push-b.log" >&2; fail "job b's push failed"; }
expect_contains "$scratch/push-b.log" "cgbench-data moved while adding the run (attempt 1); trying again"
expect_contains "$scratch/push-b.log" "added 1 run(s) to cgbench-data"
[ "$(git -C "$scratch/b" rev-parse HEAD)" = "$head_b" ] || fail "job b's HEAD moved"
[ -z "$(git -C "$scratch/b" status --porcelain)" ] || fail "job b's work tree or index changed"
files="$(git -C "$scratch/origin.git" ls-tree -r --name-only cgbench-data | sort)"
[ "$files" = "$(printf 'runs/%s.json\nruns/%s.json' "$id_a" "$id_b" | sort)" ] ||
  fail "the branch holds '$files', not both runs"
[ "$(git -C "$scratch/origin.git" rev-list --count cgbench-data)" -eq 2 ] || fail "not two commits"

# Rebuild: the reader's database holds both runs, once, also after a second pull.
for round in 1 2; do
  (cd "$scratch/reader" && "$history" pull cgbench-data "$scratch/rebuilt.db") >"$scratch/pull.log" 2>&1 ||
    { cat "$scratch/pull.log" >&2; fail "pull failed (round $round)"; }
  "$CGBENCH" history --db "$scratch/rebuilt.db" >"$scratch/runs.txt"
  expect_contains "$scratch/runs.txt" "$id_a"
  expect_contains "$scratch/runs.txt" "$id_b"
  [ "$(grep -c "^$id_a\|^$id_b" "$scratch/runs.txt")" -eq 2 ] || { cat "$scratch/runs.txt" >&2; fail "runs stored twice"; }
done
"$CGBENCH" compare --db "$scratch/rebuilt.db" "$id_a" "$id_b" >"$scratch/compare.txt" ||
  { cat "$scratch/compare.txt" >&2; fail "the rebuilt runs do not compare"; }
expect_contains "$scratch/compare.txt" "PASS  No benchmark got more expensive; 2 unchanged"

# Bad input: refused, nothing pushed.
echo '{"not": "a result"}' >"$scratch/junk.json"
if (cd "$scratch/a" && "$history" push cgbench-data "$scratch/junk.json") 2>"$scratch/junk.log"; then
  fail "a file that is no result file was pushed"
fi
expect_contains "$scratch/junk.log" "is not a result file"
[ "$(git -C "$scratch/origin.git" rev-list --count cgbench-data)" -eq 2 ] || fail "junk was pushed"
echo "cgbench-history: concurrent pushes both land, the database is rebuilt from the branch once, junk refused"
