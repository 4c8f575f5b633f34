#pragma once
// Measuring another commit checked out in a worktree (`bisect`, `backfill`) as the caller's
// tree is measured: which suite (the caller's file, its relative paths read from the same
// place in the worktree; or, asked for, the commit's own), checked before anything is built,
// and the run made to read as measured in the checkout.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "cli/context.hpp"
#include "config/run_options.hpp"
#include "config/suite.hpp"
#include "core/result.hpp"
#include "runner/worktree.hpp"

namespace CLI {
class App;
}

namespace cgbench::cli {

// Adds what `bisect` and `backfill` measure each commit with to `cmd`: --suite,
// --suite-from-commit (into `from_commit`), --name, -j, --weights, --geometry,
// --cpu-baseline, --timeout, --db and --no-db.
void add_worktree_run_options(CLI::App& cmd, config::RunInput& run, bool& from_commit);

// --build-timeout's seconds; UsageError unless a positive number.
double build_seconds(const std::string& text);

// Which suite measures a commit in a worktree.
struct WorktreeSuite {
    // false (default): the caller's suite file (--suite, else ./cgbench.toml), whatever the
    // commit holds, so an untracked or newer suite measures old commits; true: the suite file
    // at the same place in each commit.
    bool from_commit = false;
};

// The suite file `input` measures the caller's tree with (absolute); nullopt for a program
// or a Google Benchmark binary.
std::optional<std::filesystem::path> caller_suite(const config::RunInput& input,
                                                  const Context& ctx);

// `input` (the caller's) made to measure the checkout in `worktree`: the suite as `suite`
// says, with its relative paths from where it sits in the worktree (a suite file outside the
// repository keeps its own directory); a program's working directory mapped into the
// worktree. Not recorded (the caller records).
config::RunInput input_in_worktree(const config::RunInput& input, const runner::Worktree& worktree,
                                   const WorktreeSuite& suite, const Context& ctx);

// The suite file `input` measures the caller's tree with, as a commit holds it at the same
// place in the repository (read from git, nothing checked out).
struct SuiteAtCommit {
    std::optional<config::Suite> suite;  // parsed; nullopt when `problem` says why not
    std::string problem;                 // "the suite file cgbench.toml is not in this commit", ...
};

// The suite `input` measures with, as `commit` holds it; nullopt when that is no file in the
// repository (a program, a Google Benchmark binary, a suite file outside the repository).
std::optional<SuiteAtCommit> suite_at(const std::string& commit, const config::RunInput& input,
                                      const Context& ctx);

// With suite.from_commit, why `commit` cannot be measured with its own suite file (not in
// the commit, or not a valid suite), read from git without checking anything out; nullopt
// when it can, and always without from_commit (the caller's suite was checked already).
std::optional<std::string> suite_problem_at(const std::string& commit,
                                            const config::RunInput& input,
                                            const WorktreeSuite& suite, const Context& ctx);

// `run`, measured in `worktree`, as if measured in the checkout: function files named as
// there, recorded by `recorded_by` ("bisect", "backfill") on `branch` (none: a probe).
void as_measured_in_checkout(RunResult& run, const runner::Worktree& worktree,
                             std::string_view recorded_by, std::optional<std::string> branch);

// Every function's and line's file of `run` that lies under the worktree, named by its place in the
// checkout instead.
void unmap_files(RunResult& run, const runner::Worktree& worktree);

}  // namespace cgbench::cli
