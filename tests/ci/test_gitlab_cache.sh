#!/usr/bin/env bash
# Reliability audit 2, J08: the GitLab template's jobs restore cgbench from the cache and run
# it; a merge request's build can write that cache. Run with gitlab-ci-local (its cache as
# GitLab's): a merge request whose build replaces .cgbench-install/bin/cgbench with a program
# that signs every job it runs in, then the default branch's history job (a protected ref,
# with the push token): the history job must not run what the merge request left.
# cgbench is installed by a stand-in for its source (CGBENCH_SOURCE_URL: a repository whose
# installer copies this build), so no job compiles cgbench.
# Usage: test_gitlab_cache.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
ci_build_arg "$@"
ci_install_clients
command -v rsync >/dev/null || fail "gitlab-ci-local needs rsync (scripts/install-deps.sh installs it)"
scratch="$(ci_scratch "$build" gitlab-cache)"
ci_install_build "$build" "$scratch/installed"
marker="$scratch/jobs-that-ran-the-planted-cgbench"

# The stand-in source of cgbench: its installer copies the installation made above.
source_repo="$scratch/cgbench-source"
mkdir -p "$source_repo/scripts"
cat >"$source_repo/scripts/ci-install-cgbench.sh" <<SH
#!/usr/bin/env bash
set -euo pipefail
rm -rf "\$2" && mkdir -p "\$2" && cp -a "$scratch/installed/." "\$2/"
SH
chmod +x "$source_repo/scripts/ci-install-cgbench.sh"
git -C "$source_repo" init -q -b main
git -C "$source_repo" add -A
git -C "$source_repo" -c user.name=t -c user.email=t@example.invalid commit -q -m source

dir="$scratch/project"
ci_make_repo "$dir" regress
cp "$ci_root/ci/gitlab/cgbench.gitlab-ci.yml" "$dir/work/"
cat >"$dir/work/.gitlab-ci.yml" <<YML
include:
  - local: cgbench.gitlab-ci.yml
variables:
  CGBENCH_BUILD: ./build.sh
  CGBENCH_SOURCE_URL: "file://$source_repo"
  CGBENCH_SOURCE_REF: main
YML
git -C "$dir/work" checkout -q main
git -C "$dir/work" add -A
git -C "$dir/work" commit -q -m "CI"
git -C "$dir/work" checkout -q pr
git -C "$dir/work" merge -q --no-edit main
# The merge request's build plants its own cgbench into the installation the job restored.
cat >>"$dir/work/build.sh" <<SH
if [ -f .cgbench-install/bin/cgbench ] && ! grep -q PLANTED .cgbench-install/bin/cgbench; then
  mv .cgbench-install/bin/cgbench .cgbench-install/bin/cgbench.real
  printf '#!/bin/sh\n# PLANTED\necho "\$CI_JOB_NAME" >>"%s"\nexec "\$(dirname "\$0")/cgbench.real" "\$@"\n' "$marker" \
    >.cgbench-install/bin/cgbench
  chmod +x .cgbench-install/bin/cgbench
fi
SH
git -C "$dir/work" commit -q -am "MR: a build that plants a cgbench"
git -C "$dir/work" remote set-head origin main

gcl() { # ARGS... (output in $dir/log)
  (cd "$dir/work" && HOME="$dir" "$ci_bin/gitlab-ci-local" --no-color --shell-isolation \
      --ignore-predefined-vars CI_PIPELINE_SOURCE,CI_COMMIT_BRANCH,CI_COMMIT_REF_PROTECTED "$@") \
    >"$dir/log" 2>&1
}

gcl --job cgbench:mr --variable CI_PIPELINE_SOURCE=merge_request_event \
  --variable CI_MERGE_REQUEST_IID=5 --variable CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main \
  --variable "CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git -C "$dir/work" merge-base HEAD origin/main)" \
  --variable CI_COMMIT_REF_PROTECTED=false ||
  { cat "$dir/log" >&2; fail "the merge request's jobs failed"; }
grep -rlq PLANTED "$dir/work/.gitlab-ci-local/cache" ||
  { cat "$dir/log" >&2; fail "the planted cgbench did not reach the cache (the test cannot tell anything)"; }

git -C "$dir/work" checkout -q main
gcl --job cgbench:history --variable CI_PIPELINE_SOURCE=push --variable CI_COMMIT_BRANCH=main \
  --variable CI_DEFAULT_BRANCH=main --variable CI_COMMIT_REF_PROTECTED=true ||
  { cat "$dir/log" >&2; fail "the history job failed"; }
if grep -q "cgbench:history" "$marker" 2>/dev/null; then
  cat "$dir/log" >&2
  fail "the default branch's history job ran the cgbench a merge request planted in the cache"
fi
expect_contains "$dir/log" "PASS  cgbench:history"
echo "J08: the protected history job never restores an installation a merge request could write"
