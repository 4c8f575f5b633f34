#include "runner/git_info.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ci/facts.hpp"
#include "exec/git.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// The facts of info.commit that history orders and labels it by: dates, parents, subject,
// and its place on its first-parent line unless the clone is shallow (where that line is
// cut, so the count would depend on the clone's depth).
void read_commit_facts(const exec::Git& git, GitInfo& info) {
    const auto text =
        git.run({"log", "-1", "--format=%cI%x1f%aI%x1f%P%x1f%s", "--end-of-options", *info.commit});
    if (!text) return;
    const auto f = util::split(*text, '\x1f');
    if (f.size() != 4) return;
    info.commit_time = std::string(f[0]);
    info.author_time = std::string(f[1]);
    for (const auto p : util::split(f[2], ' ')) {
        if (!p.empty()) info.parents.emplace_back(p);
    }
    info.subject = std::string(f[3]);
    const auto shallow = git.run({"rev-parse", "--is-shallow-repository"});
    if (shallow) info.shallow = *shallow == "true";
    if (info.shallow.value_or(true)) return;
    const auto count =
        git.run({"rev-list", "--first-parent", "--count", "--end-of-options", *info.commit});
    if (const auto n = count ? util::parse_u64(*count) : std::nullopt) {
        info.first_parent_depth = *n;
    }
}

}  // namespace

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
    if (!branch || *branch == "HEAD") branch = ci::ci_branch(caller);
    info.branch = branch;
    // Untracked files (build directories) do not make a checkout dirty.
    if (const auto status = git.run({"status", "--porcelain", "--untracked-files=no"})) {
        info.dirty = !status->empty();
    }
    read_commit_facts(git, info);
    return info;
}

std::optional<std::string> missing_git_warning(const std::filesystem::path& dir,
                                               const exec::EnvMap& caller) {
    exec::PosixProcessRunner unused;
    if (exec::Git(dir, caller, unused).available()) return std::nullopt;
    std::error_code ec;
    for (auto p = std::filesystem::absolute(dir, ec); !ec && !p.empty(); p = p.parent_path()) {
        if (std::filesystem::exists(p / ".git", ec)) {
            return fmt::format("{} is in a git checkout, but git is not on PATH: the run has no "
                               "commit, so `compare` cannot find it by a git ref (install git)",
                               dir.string());
        }
        if (p == p.parent_path()) break;
    }
    return std::nullopt;
}

std::map<std::string, CommitInfo, std::less<>> read_commits(const std::filesystem::path& dir,
                                                           const std::vector<std::string>& commits,
                                                           const exec::EnvMap& caller,
                                                           exec::ProcessRunner& runner) {
    // A git process costs tens of milliseconds to start: few and large batches (a steps
    // report over a long history names a thousand commits), each answer kept whole (a line
    // is about 100 bytes; 2 KiB each allows long subjects).
    constexpr std::size_t kBatch = 2000;
    constexpr std::size_t kKept = kBatch * 2048;
    std::map<std::string, CommitInfo, std::less<>> out;
    const exec::Git git(dir, caller, runner);
    if (!git.available()) return out;
    for (std::size_t first = 0; first < commits.size(); first += kBatch) {
        std::vector<std::string> args = {"log", "--no-walk=unsorted", "--ignore-missing",
                                         "--format=%H%x1f%s%x1f%an%x1f%cI", "--end-of-options"};
        const auto last = std::min(commits.size(), first + kBatch);
        args.insert(args.end(), commits.begin() + static_cast<std::ptrdiff_t>(first),
                    commits.begin() + static_cast<std::ptrdiff_t>(last));
        const auto text = git.run(args, kKept);
        if (!text) return out;  // not a repository, or git refused the list
        for (const auto line : util::split(*text, '\n')) {
            const auto f = util::split(line, '\x1f');
            if (f.size() == 4) {
                out[std::string(f[0])] = {std::string(f[1]), std::string(f[2]), std::string(f[3])};
            }
        }
    }
    return out;
}

}  // namespace cgbench::runner
