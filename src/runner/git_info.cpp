#include "runner/git_info.hpp"

#include "exec/git.hpp"

namespace cgbench::runner {

GitInfo read_git_info(const std::filesystem::path& dir, const exec::EnvMap& caller,
                      exec::ProcessRunner& runner) {
    GitInfo info;
    // CGBENCH_BRANCH names the branch where git cannot, or names it wrongly: cgbench-pr
    // measures the merge base in a detached worktree, on behalf of the base branch.
    if (const auto it = caller.find("CGBENCH_BRANCH"); it != caller.end() && !it->second.empty()) {
        info.branch = it->second;
    }
    const exec::Git git(dir, caller, runner);
    if (!git.available()) return info;
    info.commit = git.run({"rev-parse", "HEAD"});
    if (!info.commit) return info;
    auto branch = info.branch ? info.branch : git.run({"rev-parse", "--abbrev-ref", "HEAD"});
    if (!branch || *branch == "HEAD") {
        branch.reset();
        for (const char* var : {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"}) {
            if (const auto it = caller.find(var); it != caller.end() && !it->second.empty()) {
                branch = it->second;
                break;
            }
        }
    }
    info.branch = branch;
    // Untracked files (build directories) do not make a checkout dirty.
    if (const auto status = git.run({"status", "--porcelain", "--untracked-files=no"})) {
        info.dirty = !status->empty();
    }
    return info;
}

}  // namespace cgbench::runner
