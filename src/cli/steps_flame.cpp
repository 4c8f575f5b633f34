#include "cli/steps_flame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/flame_graphs.hpp"
#include "cli/worktree_run.hpp"
#include "exec/interrupt.hpp"
#include "runner/worktree.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

void tell_flame(const Context& ctx, std::string_view text) {
    if (!ctx.global.quiet) print_out(fmt::format("cgbench: {}\n", text), Stream::Stderr);
}

// A code step to draw: its benchmark, the commits and costs on both sides.
struct FlameStep {
    std::string benchmark;
    std::string before, after;
    std::uint64_t before_cost = 0, after_cost = 0;
    double change = 0;
};

// The code steps of `branches` whose commits are known, the largest moves first, at most
// `count`; a step listed on two branches once.
std::vector<FlameStep> worst_code_steps(const history::History& h,
                                        const std::vector<history::BranchSteps>& branches,
                                        std::size_t count) {
    std::vector<FlameStep> out;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const auto& branch : branches) {
        for (const auto& event : branch.events) {
            for (const auto& s : event.steps) {
                const auto& before = h.runs[s.before.run].git.commit;
                const auto& after = h.runs[s.after.run].git.commit;
                if (s.step.label != history::Label::Code || !before || !after) continue;
                if (!seen.emplace(s.benchmark, *before, *after).second) continue;
                out.push_back({s.benchmark, *before, *after, s.before.cost.value_or(0),
                               s.after.cost.value_or(0), s.step.change});
            }
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const FlameStep& a, const FlameStep& b) {
        return std::fabs(a.change) > std::fabs(b.change);
    });
    if (out.size() > count) out.resize(count);
    return out;
}

// Builds commits in one worktree (each build after the first incremental) and measures
// benchmarks' call trees there.
class CommitSides {
  public:
    CommitSides(const StepsFlameInput& in, const Context& ctx) : in_(in), ctx_(ctx) {
        if (in.build_timeout) timeout_ = build_seconds(*in.build_timeout);
        suite_.from_commit = in.suite_from_commit;
    }

    // The call tree of each of `names` at `commit`, or why there is none.
    std::map<std::string, FlameTree> measure(const std::string& commit,
                                             const std::set<std::string>& names) {
        std::map<std::string, FlameTree> out;
        std::string problem;
        const auto side = prepare(commit, problem);
        const auto which = "commit " + commit.substr(0, 12);
        for (const auto& name : names) {
            if (!side) {
                out[name] = {std::nullopt, problem};
                continue;
            }
            try {
                out[name] = measure_flame_tree(*side, name, which, ctx_);
            } catch (const Interrupted&) {
                throw;
            } catch (const Error& e) {
                out[name] = {std::nullopt, e.what()};
            }
        }
        return out;
    }

  private:
    // `commit` checked out and built, its run planned; nullopt with `problem` when it cannot be.
    std::optional<FlameSide> prepare(const std::string& commit, std::string& problem);

    const StepsFlameInput& in_;
    const Context& ctx_;
    double timeout_ = runner::kDefaultBuildTimeout;
    WorktreeSuite suite_;
    std::unique_ptr<runner::Worktree> worktree_;
    std::optional<valgrind::Installation> valgrind_;
};

std::optional<FlameSide> CommitSides::prepare(const std::string& commit, std::string& problem) {
    if (auto p = suite_problem_at(commit, in_.run, suite_, ctx_)) {
        problem = std::move(*p);
        return std::nullopt;
    }
    if (!worktree_) worktree_ = std::make_unique<runner::Worktree>(ctx_.cwd, ctx_.env, ctx_.runner);
    worktree_->checkout(commit);
    const auto here = worktree_->map(ctx_.cwd);
    tell_flame(ctx_, fmt::format("building {}: {}", commit.substr(0, 12), *in_.build));
    const auto build =
        runner::run_build(*in_.build, here, ctx_.env, ctx_.runner, ctx_.verbose(), timeout_);
    if (!build.ok || worktree_->head() != commit) {
        problem = build.ok ? "the build checked out another commit"
                           : fmt::format("the build failed at {} ({}{})", commit.substr(0, 12),
                                         build.what, build.timed_out ? ", --build-timeout" : "");
        return std::nullopt;
    }
    auto input = input_in_worktree(in_.run, *worktree_, suite_, ctx_);
    input.db.disabled = true;
    try {
        FlameSide side{plan_sharded_run(input, ctx_), nullptr};
        side.plan.request.git_dir = worktree_->root();
        if (!valgrind_) {
            valgrind_ = valgrind::locate_valgrind(
                ctx_.env, ctx_.runner, util::ProbeCache(side.plan.request.probe_cache_dir));
        }
        side.inst = &*valgrind_;
        return side;
    } catch (const UsageError& e) {  // the suite or a program does not exist at this commit
        problem = e.what();
        return std::nullopt;
    }
}

}  // namespace

void add_steps_flame_options(CLI::App& cmd, StepsFlameInput& in) {
    cmd.add_option("--flame", in.dir,
                   "Draw the differential flame graph of each of the worst code steps into DIR "
                   "(both commits built with --build and measured again under Callgrind)");
    cmd.add_option(
        "--build", in.build,
        "With --flame: build command run in the worktree of each commit, in the same "
        "directory relative to the repository (a shell command line, as bisect --build)");
    cmd.add_option("--build-timeout", in.build_timeout,
                   fmt::format("With --flame: stop a build after SEC seconds [{:g}]",
                               runner::kDefaultBuildTimeout));
    cmd.add_option("--flame-count", in.count,
                   fmt::format("With --flame: how many steps to draw, the largest moves first [{}]",
                               kDefaultStepFlames));
    cmd.add_option("--suite", in.run.suite,
                   "With --flame: the suite file measuring each commit (its relative paths from "
                   "the same place in the commit's checkout) [./cgbench.toml]");
    cmd.add_flag("--suite-from-commit", in.suite_from_commit,
                 "With --flame: measure each commit with the suite file it holds at that place");
}

void check_steps_flame(const StepsFlameInput& in) {
    if (!in.dir) {
        if (in.build || in.build_timeout || in.run.suite || in.suite_from_commit ||
            in.count != kDefaultStepFlames) {
            throw UsageError("--build, --build-timeout, --flame-count and --suite go with --flame",
                             "add --flame DIR to draw the flame graphs of the worst steps");
        }
        return;
    }
    if (!in.build) {
        throw UsageError(
            "steps --flame needs --build CMD: each step's commits are built in a "
            "worktree",
            "add --build with the command that builds a checkout, e.g. --build make");
    }
    if (in.count == 0) {
        throw UsageError("--flame-count must be at least 1", "give how many steps to draw");
    }
    if (in.build_timeout) build_seconds(*in.build_timeout);
}

std::vector<std::string> draw_step_flames(const StepsFlameInput& in, const history::History& h,
                                          const std::vector<history::BranchSteps>& branches,
                                          const Context& ctx) {
    const auto steps = worst_code_steps(h, branches, in.count);
    if (steps.empty()) {
        tell_flame(ctx, "no flame graphs: no code step between two known commits");
        return {};
    }
    const auto dir = ctx.cwd / *in.dir;
    util::ensure_writable_dir(dir, "--flame");
    std::map<std::string, std::set<std::string>> wanted;  // commit -> benchmarks
    for (const auto& s : steps) {
        wanted[s.before].insert(s.benchmark);
        wanted[s.after].insert(s.benchmark);
    }
    CommitSides sides(in, ctx);
    std::map<std::pair<std::string, std::string>, FlameTree> trees;  // (commit, benchmark)
    for (const auto& [commit, names] : wanted) {
        for (auto& [name, tree] : sides.measure(commit, names))
            trees[{commit, name}] = std::move(tree);
    }
    std::vector<std::string> files;
    for (const auto& s : steps) {
        const auto& base = trees[{s.before, s.benchmark}];
        const auto& head = trees[{s.after, s.benchmark}];
        const auto at = s.after.substr(0, 12);
        if (!base.tree || !head.tree) {
            tell_flame(
                ctx, fmt::format("no flame graph of {} at {}: {}", util::printable(s.benchmark), at,
                                 base.tree ? head.problem : base.problem));
            continue;
        }
        const auto file = dir / (util::file_safe(s.benchmark) + "-" + at + ".svg");
        write_flame_graph(file, s.benchmark,
                          flame_subtitle(s.before_cost, s.after_cost, s.before.substr(0, 12), at),
                          *head.tree, *base.tree);
        tell_flame(
            ctx, fmt::format("flame graph of {} (step at {}, {}): {}", util::printable(s.benchmark),
                             at, util::percent(s.change), file.string()));
        files.push_back(file.string());
    }
    return files;
}

}  // namespace cgbench::cli
