#include "runner/git_info.hpp"

#include "util/strings.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

namespace {

std::optional<std::string> git(const std::filesystem::path& git_bin,
                               const std::filesystem::path& dir,
                               std::vector<std::string> args, const exec::EnvMap& caller,
                               exec::ProcessRunner& runner) {
    exec::ProcessSpec spec;
    spec.argv = {git_bin.string(), "-C", dir.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    for (const char* keep : {"PATH", "HOME"}) {
        if (const auto it = caller.find(keep); it != caller.end()) {
            spec.env.push_back(std::string(keep) + "=" + it->second);
        }
    }
    spec.env.push_back("LC_ALL=C");
    spec.disable_aslr = false;
    spec.timeout_seconds = 30;
    const auto out = runner.run(spec);
    if (out.how != exec::Termination::Exited || out.exit_code != 0) return std::nullopt;
    return std::string(util::trim(out.stdout_tail));
}

}  // namespace

GitInfo read_git_info(const std::filesystem::path& dir, const exec::EnvMap& caller,
                      exec::ProcessRunner& runner) {
    GitInfo info;
    const auto path_it = caller.find("PATH");
    const auto git_bin = valgrind::search_path("git", path_it != caller.end() ? path_it->second
                                                                              : "/usr/bin:/bin");
    if (git_bin.empty()) return info;
    info.commit = git(git_bin, dir, {"rev-parse", "HEAD"}, caller, runner);
    if (!info.commit) return info;
    auto branch = git(git_bin, dir, {"rev-parse", "--abbrev-ref", "HEAD"}, caller, runner);
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
    if (const auto status = git(git_bin, dir, {"status", "--porcelain", "--untracked-files=no"},
                                caller, runner)) {
        info.dirty = !status->empty();
    }
    return info;
}

}  // namespace cgbench::runner
