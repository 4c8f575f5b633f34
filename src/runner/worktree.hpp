#pragma once
// Another commit of the repository, checked out beside the work tree (a detached `git
// worktree` under a private /tmp directory) and built there, for `cgbench bisect`. One
// worktree serves every commit, so each build after the first is incremental.

#include <filesystem>
#include <string>

#include "exec/environment.hpp"
#include "exec/git.hpp"
#include "exec/process.hpp"
#include "util/fs.hpp"

namespace cgbench::runner {

class Worktree {
  public:
    // Adds a detached worktree of the repository holding `dir`. Throws UsageError outside a
    // repository, EnvironmentError when git fails.
    Worktree(const std::filesystem::path& dir, const exec::EnvMap& env,
             exec::ProcessRunner& runner);
    // Removes the worktree (and its registration in the repository).
    ~Worktree();
    Worktree(const Worktree&) = delete;
    Worktree& operator=(const Worktree&) = delete;

    // Checks out `commit` (forced, detached) and updates submodules when there are any.
    void checkout(const std::string& commit);
    // The commit checked out now (a build may have checked out another); empty when git
    // cannot tell.
    std::string head() const;

    // Where `dir` (given to the constructor, or any path in the repository) is in the worktree.
    std::filesystem::path map(const std::filesystem::path& dir) const;
    const std::filesystem::path& root() const { return root_; }
    // `path` (as a compiler recorded it) with the worktree's root replaced by the
    // repository's, so files read as in the checkout; other paths unchanged.
    std::string unmap(const std::string& path) const;

  private:
    exec::ProcessRunner& runner_;
    const exec::EnvMap& env_;
    std::filesystem::path top_;  // the repository's top level
    util::StagingDir staging_;
    std::filesystem::path root_;  // the worktree, inside staging_
    exec::Git repo_;
};

// How long a build may run unless told otherwise: generous for a full build of a large
// project, but finite, so a hanging build ends with a message instead of at CI's job timeout.
inline constexpr double kDefaultBuildTimeout = 3600;

struct BuildOutcome {
    bool ok = false;
    bool timed_out = false;
    std::string what;      // "exit 2", "killed by SIGKILL": why it failed
    std::string log_tail;  // the end of its output
    double seconds = 0;
};

// Runs the build command `command` (a shell command line, as cgbench-pr's --build: run by
// bash, or sh without bash) in `dir` with the caller's environment; with `echo`, its output
// goes to stderr as it comes. A build running longer than `timeout_seconds` is stopped (its
// whole process tree) and fails as "timed out after N s".
BuildOutcome run_build(const std::string& command, const std::filesystem::path& dir,
                       const exec::EnvMap& env, exec::ProcessRunner& runner, bool echo,
                       double timeout_seconds = kDefaultBuildTimeout);

}  // namespace cgbench::runner
