#include "cli/worktree_run.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/suite.hpp"
#include "exec/git.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace fs = std::filesystem;

namespace {

// `path` relative to the top level of the caller's repository; nullopt outside it.
std::optional<fs::path> in_repository(const fs::path& path, const Context& ctx) {
    const auto top = exec::Git(ctx.cwd, ctx.env, ctx.runner).run({"rev-parse", "--show-toplevel"});
    if (!top) return std::nullopt;
    const auto relative = fs::weakly_canonical(path).lexically_relative(fs::weakly_canonical(*top));
    if (relative.empty() || *relative.begin() == "..") return std::nullopt;
    return relative;
}

}  // namespace

void add_worktree_run_options(CLI::App& cmd, config::RunInput& run, bool& from_commit) {
    cmd.add_option("--suite", run.suite,
                   "Suite file, used at every commit (its relative paths from the same place "
                   "in the commit's checkout) [./cgbench.toml]");
    cmd.add_flag("--suite-from-commit", from_commit,
                 "Measure each commit with the suite file it holds at that place (commits "
                 "without one are skipped unbuilt)");
    cmd.add_option("--name", run.name, "Benchmark name of PROGRAM");
    cmd.add_option("-j,--jobs", run.jobs, "Benchmarks measured at once [number of cores]");
    cmd.add_option("--weights", run.weights, "As run --weights [pythonspeed]");
    cmd.add_option("--geometry", run.geometry, "As run --geometry [ci-default]");
    cmd.add_option("--cpu-baseline", run.cpu_baseline, "As run --cpu-baseline [portable]");
    cmd.add_option("--timeout", run.timeout, "Kill a benchmark after SEC seconds");
    add_db_options(cmd, run.db);
}

double build_seconds(const std::string& text) {
    const auto v = util::parse_seconds(text);
    if (!v || *v <= 0 || *v > 1e9) {
        throw UsageError(fmt::format("invalid --build-timeout '{}'", util::printable(text)),
                         "give a positive number of seconds, e.g. --build-timeout 1800");
    }
    return *v;
}

std::optional<fs::path> caller_suite(const config::RunInput& input, const Context& ctx) {
    if (input.suite) return (ctx.cwd / *input.suite).lexically_normal();
    if (!input.command.empty() || input.gbench) return std::nullopt;
    return ctx.cwd / "cgbench.toml";
}

config::RunInput input_in_worktree(const config::RunInput& input, const runner::Worktree& worktree,
                                   const WorktreeSuite& suite, const Context& ctx) {
    auto out = input;
    const auto file = caller_suite(input, ctx);
    if (!file) {
        out.cwd = worktree.map(ctx.cwd / input.cwd.value_or(".")).string();
        return out;
    }
    const bool inside = in_repository(file->parent_path(), ctx).has_value();
    if (suite.from_commit) {
        out.suite = (worktree.map(file->parent_path()) / file->filename()).string();
    } else {
        out.suite = file->string();
        if (inside) out.suite_dir = worktree.map(file->parent_path()).string();
    }
    return out;
}

std::optional<SuiteAtCommit> suite_at(const std::string& commit, const config::RunInput& input,
                                      const Context& ctx) {
    const auto file = caller_suite(input, ctx);
    if (!file) return std::nullopt;
    const auto relative = in_repository(*file, ctx);
    if (!relative) return std::nullopt;  // outside the repository: the same file every time
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    constexpr std::size_t kSuiteBytes = 4 << 20;
    const auto text = git.run({"show", commit + ":" + relative->generic_string()}, kSuiteBytes);
    SuiteAtCommit out;
    if (!text) {
        out.problem = fmt::format("the suite file {} is not in this commit",
                                  util::printable(relative->generic_string()));
        return out;
    }
    try {
        out.suite = config::parse_suite(*text, *file);
    } catch (const UsageError& e) {
        out.problem = fmt::format("its suite file is not valid: {}", util::printable(e.what()));
    }
    return out;
}

std::optional<std::string> suite_problem_at(const std::string& commit,
                                            const config::RunInput& input,
                                            const WorktreeSuite& suite, const Context& ctx) {
    if (!suite.from_commit) return std::nullopt;
    const auto at = suite_at(commit, input, ctx);
    if (!at || at->suite) return std::nullopt;
    return at->problem;
}

void as_measured_in_checkout(RunResult& run, const runner::Worktree& worktree,
                             std::string_view recorded_by, std::optional<std::string> branch) {
    run.recorded_by = std::string(recorded_by);
    run.git.branch = std::move(branch);
    unmap_files(run, worktree);  // files named as in the checkout, as stored results name them
}

void unmap_files(RunResult& run, const runner::Worktree& worktree) {
    for (auto& b : run.benchmarks) {
        for (auto& f : b.functions)
            f.file = worktree.unmap(f.file);
        for (auto& l : b.lines)
            l.file = worktree.unmap(l.file);
    }
}

}  // namespace cgbench::cli
