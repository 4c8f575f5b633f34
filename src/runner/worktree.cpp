#include "runner/worktree.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

fs::path top_level(const fs::path& dir, const exec::EnvMap& env, exec::ProcessRunner& runner) {
    const exec::Git git(dir, env, runner);
    const auto top = git.run({"rev-parse", "--show-toplevel"});
    if (!top) {
        throw UsageError(fmt::format("{} is not in a git repository", dir.string()),
                         "run bisect in a clone of the project");
    }
    return fs::path(*top);
}

}  // namespace

Worktree::Worktree(const fs::path& dir, const exec::EnvMap& env, exec::ProcessRunner& runner)
    : runner_(runner),
      env_(env),
      top_(top_level(dir, env, runner)),
      // Named as the repository's own directory: cgbench runs a program through a path that
      // keeps its last two components, so a program at the top level runs the same path in
      // the worktree as in the checkout.
      root_(staging_.path() / (top_.filename().empty() ? fs::path("w") : top_.filename())),
      repo_(top_, env, runner) {
    repo_.run({"worktree", "prune"});  // what an interrupted run left registered
    repo_.run_or_throw({"worktree", "add", "--detach", "--quiet", root_.string(), "HEAD"},
                       "add a worktree for bisect");
}

Worktree::~Worktree() {
    // Also runs while unwinding from Ctrl-C, SIGTERM (a CI cancel) or a failed build: git
    // runs although the interrupt arrived, and nothing here may throw. Best effort: the
    // directory goes with staging_ in any case, and a registration left behind is what
    // `git worktree prune` removes.
    repo_.cleanup({"worktree", "remove", "--force", root_.string()});
    repo_.cleanup({"worktree", "prune"});
}

void Worktree::checkout(const std::string& commit) {
    const exec::Git git(root_, env_, runner_);
    git.run_or_throw({"checkout", "--quiet", "--force", "--detach", commit, "--"},
                     "check out " + util::printable(commit.substr(0, 12)));
    if (fs::exists(root_ / ".gitmodules")) {
        git.run_or_throw({"submodule", "update", "--init", "--recursive", "--quiet"},
                         "update the submodules of " + util::printable(commit.substr(0, 12)));
    }
}

std::string Worktree::head() const {
    return exec::Git(root_, env_, runner_).run({"rev-parse", "HEAD"}).value_or("");
}

fs::path Worktree::map(const fs::path& dir) const {
    const auto relative = fs::weakly_canonical(dir).lexically_relative(fs::weakly_canonical(top_));
    if (relative.empty() || *relative.begin() == "..") return root_;
    return relative == "." ? root_ : root_ / relative;
}

std::string Worktree::unmap(const std::string& path) const {
    const auto root = root_.string();
    if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
        path[root.size()] == '/') {
        return top_.string() + path.substr(root.size());
    }
    return path;
}

BuildOutcome run_build(const std::string& command, const fs::path& dir, const exec::EnvMap& env,
                       exec::ProcessRunner& runner, bool echo, double timeout_seconds) {
    const auto path = env.count("PATH") != 0 ? env.at("PATH") : std::string("/usr/bin:/bin");
    auto shell = exec::search_path("bash", path);
    if (shell.empty()) shell = "/bin/sh";
    exec::ProcessSpec spec;
    spec.argv = {shell.string(), "-c", command};
    for (const auto& [k, v] : env)
        spec.env.push_back(k + "=" + v);
    spec.cwd = dir.string();
    spec.disable_aslr = false;
    spec.echo_output = echo;
    spec.timeout_seconds = timeout_seconds;
    const auto out = runner.run(spec);
    BuildOutcome b;
    b.seconds = out.wall_seconds;
    b.log_tail = out.stderr_tail.empty() ? out.stdout_tail : out.stderr_tail;
    b.ok = out.how == exec::Termination::Exited && out.exit_code == 0;
    switch (out.how) {
        case exec::Termination::Exited:
            b.what = fmt::format("exit {}", out.exit_code);
            break;
        case exec::Termination::Signaled:
            b.what = "killed by " + exec::describe_signal(out.signal);
            break;
        case exec::Termination::TimedOut:
            b.timed_out = true;
            b.what = fmt::format("timed out after {:.3g} s", timeout_seconds);
            break;
        case exec::Termination::Limited:
            b.what = "stopped: too many processes";
            break;
        case exec::Termination::SpawnFailed:
            b.what = fmt::format("could not start {} ({})", shell.string(), out.spawn_step);
            break;
    }
    return b;
}

}  // namespace cgbench::runner
