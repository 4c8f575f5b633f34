#include "cli/worktree_run.hpp"

namespace cgbench::cli {

namespace fs = std::filesystem;

config::RunInput input_in_worktree(config::RunInput input, const runner::Worktree& worktree,
                                   const fs::path& cwd) {
    if (input.suite) {
        input.suite = worktree.map(fs::absolute(cwd / *input.suite)).string();
    } else if (!input.command.empty() || input.gbench) {
        input.cwd = worktree.map(cwd / input.cwd.value_or(".")).string();
    } else {
        input.suite = (worktree.map(cwd) / "cgbench.toml").string();
    }
    return input;
}

void unmap_files(RunResult& run, const runner::Worktree& worktree) {
    for (auto& b : run.benchmarks) {
        for (auto& f : b.functions)
            f.file = worktree.unmap(f.file);
    }
}

}  // namespace cgbench::cli
