#pragma once
// Git metadata for a run: commit, branch and whether the work tree has uncommitted changes.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"

namespace cgbench::runner {

// Reads git facts for `dir`; fields stay empty outside a repository or without git. The
// branch is CGBENCH_BRANCH in `caller` when set, else git's; in CI detached checkouts it
// is the one the CI names (ci/facts.hpp: e.g. GITHUB_HEAD_REF, CI_COMMIT_REF_NAME).
GitInfo read_git_info(const std::filesystem::path& dir, const exec::EnvMap& caller,
                      exec::ProcessRunner& runner);

// A warning when `dir` is inside a git checkout (a `.git` in it or above) but no git is on
// the PATH of `caller`: the run would be recorded without its commit, and a later `compare
// main` could not find it. nullopt otherwise.
std::optional<std::string> missing_git_warning(const std::filesystem::path& dir,
                                               const exec::EnvMap& caller);

// Subject, author and date of each of `commits` that git knows in `dir`, by full commit id;
// unknown commits (and everything, outside a repository or without git) are left out.
std::map<std::string, CommitInfo, std::less<>> read_commits(const std::filesystem::path& dir,
                                                           const std::vector<std::string>& commits,
                                                           const exec::EnvMap& caller,
                                                           exec::ProcessRunner& runner);

}  // namespace cgbench::runner
