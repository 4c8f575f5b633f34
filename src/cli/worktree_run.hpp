#pragma once
// Measuring another commit in a worktree as if in the checkout, for `bisect` and `pr`: the
// run input read at the same place relative to the repository, and the files a compiler
// recorded under the worktree named as in the checkout, so the functions of a result
// measured there pair with those measured in the checkout (a build that records absolute
// paths, as every CMake build does, names them differently otherwise).

#include <filesystem>

#include "config/run_options.hpp"
#include "core/result.hpp"
#include "runner/worktree.hpp"

namespace cgbench::cli {

// `input` (as `cgbench run` in `cwd` of the checkout reads it) made to read the worktree: the
// suite file, or the working directory of a command or Google Benchmark binary, mapped
// there. Without a suite or a command: the worktree's cgbench.toml beside `cwd`.
config::RunInput input_in_worktree(config::RunInput input, const runner::Worktree& worktree,
                                   const std::filesystem::path& cwd);

// Every function's file of `run` that lies under the worktree, named by its place in the
// checkout instead.
void unmap_files(RunResult& run, const runner::Worktree& worktree);

}  // namespace cgbench::cli
