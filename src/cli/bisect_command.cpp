// `cgbench bisect GOOD BAD --build CMD [NAME]`: the first commit on the first-parent line from
// GOOD to BAD where a benchmark's cost moved beyond the threshold, found by halving; each
// commit's results come from the history when recorded there, otherwise the commit is built
// and measured in a worktree (and recorded). Counts are exact: one measurement per commit
// decides, and the answer is exact.

// GCC 12 reports a null dereference inside CLI11's string splitting (vector<string>
// relocation in CLI::detail::split) as inlined into this file; there is none.
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/bisect_oracle.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "exec/git.hpp"
#include "history/bisect.hpp"
#include "runner/gbench.hpp"
#include "runner/git_info.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct BisectInput {
    std::string good;
    std::string bad;
    std::optional<std::string> name;
    std::string build;
    std::optional<std::string> build_timeout;
    config::RunInput run;
    std::vector<std::string> thresholds;
    std::optional<std::string> format;
    bool suite_from_commit = false;
};

// `ref` as a full commit id; UsageError when git does not know it.
std::string resolve(const exec::Git& git, const std::string& ref) {
    const auto commit =
        git.run({"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"});
    if (!commit) {
        throw UsageError(
            fmt::format("'{}' is not a commit of this repository", util::printable(ref)),
            "name GOOD and BAD by a commit, branch or tag (git rev-parse takes it)");
    }
    return *commit;
}

// GOOD, then every commit on BAD's first-parent line after it, BAD last.
std::vector<std::string> commit_line(const exec::Git& git, const std::string& good,
                                     const std::string& bad) {
    if (good == bad) throw UsageError("GOOD and BAD are the same commit", "name two commits");
    if (!git.run({"merge-base", "--is-ancestor", good, bad})) {
        throw UsageError(fmt::format("GOOD ({}) is not an ancestor of BAD ({})", good.substr(0, 12),
                                     bad.substr(0, 12)),
                         "GOOD must come before BAD in the history");
    }
    const auto text =
        git.run_or_throw({"rev-list", "--first-parent", "--reverse", good + ".." + bad},
                         "list the commits to bisect");
    std::vector<std::string> line = {good};
    for (const auto c : util::split(text, '\n')) {
        if (!util::trim(c).empty()) line.emplace_back(util::trim(c));
    }
    if (line.back() != bad) line.push_back(bad);
    return line;
}

// The benchmarks judged: NAME, the program's name, or every benchmark of the suite.
std::set<std::string> judged_names(const BisectInput& in, const Context& ctx) {
    if (in.name) return {*in.name};
    auto input = in.run;
    input.db.disabled = true;
    const auto plan = plan_sharded_run(input, ctx);  // also checks the options, before building
    std::set<std::string> names;
    for (const auto& b : plan.request.benchmarks) {
        if (b.kind == runner::MeasureKind::Regions) {
            throw UsageError(
                fmt::format("bisect cannot tell the regions of '{}' before measuring it",
                            util::printable(b.name)),
                "name the benchmark to bisect: cgbench bisect GOOD BAD NAME/REGION");
        }
        names.insert(b.name);
    }
    return names;
}

// A relative threshold below `change` (its first significant digit, rounded down: 0.39% ->
// 0.3%), so the move counts as one; "" for no move.
std::string threshold_below(double change) {
    const double percent = std::abs(change) * 100;
    if (percent <= 0) return "";
    const double unit = std::pow(10.0, std::floor(std::log10(percent)));
    double below = std::floor(percent / unit) * unit;
    if (below >= percent) below -= unit / 2;
    return fmt::format("{:g}%", below);
}

// BAD's largest cost move against GOOD (both measured alike), for "nothing to bisect".
std::optional<report::LargestMove> largest_move(BisectOracle& oracle,
                                                const report::BisectReport& r) {
    std::optional<report::LargestMove> out;
    try {
        for (const auto& b : oracle.change(r.good, r.bad).benchmarks) {
            const auto* cost = b.change(metrics::Metric::cost());
            if (cost == nullptr) continue;
            const auto delta =
                static_cast<std::int64_t>(cost->head) - static_cast<std::int64_t>(cost->base);
            if (out && std::abs(cost->relative()) <= std::abs(out->change)) continue;
            out = report::LargestMove{b.name, cost->relative(), delta, ""};
        }
    } catch (const BenchmarkError&) {
        return std::nullopt;  // the two could not be measured alike: nothing to say
    }
    if (out) out->threshold = threshold_below(out->change);
    return out;
}

int execute(BisectInput in, const Context& ctx) {
    const auto reporter = chosen_format(in.format, report::Model::Bisect, "bisect").bisect();
    const auto& env = ctx.env;
    const exec::Git git(ctx.cwd, env, ctx.runner);
    if (!git.available()) {
        throw EnvironmentError("bisect needs git, which is not on PATH", "install git");
    }
    report::BisectReport r;
    r.good = resolve(git, in.good);
    r.bad = resolve(git, in.bad);
    const auto line = commit_line(git, r.good, r.bad);
    r.commits = line.size();

    BisectSetup setup;
    setup.build = in.build;
    if (in.build_timeout) setup.build_timeout = build_seconds(*in.build_timeout);
    if (in.name && !in.run.command.empty()) in.run.name = in.name;
    if (in.name && in.run.command.empty() && !in.run.gbench) {
        in.run.filter = runner::exact_filter(*in.name);
    }
    setup.names = judged_names(in, ctx);  // the caller's suite, checked before any build
    setup.run = in.run;
    setup.suite.from_commit = in.suite_from_commit;
    if (const auto it = env.find("CGBENCH_THRESHOLD"); it != env.end() && !it->second.empty()) {
        setup.gate.thresholds.add(it->second);
    }
    for (const auto& t : in.thresholds)
        setup.gate.thresholds.add(t);
    std::vector<std::string> gate;
    for (const auto& rule : setup.gate.thresholds.rules()) {
        gate.push_back(fmt::format("{}{} {}", rule.pattern.empty() ? "" : rule.pattern + ":",
                                   rule.metric.name(), rule.threshold.describe()));
    }
    r.gate = util::join(gate, ", ");

    const auto db = config::resolve_db(in.run.db, env);
    const auto history = access::open_history_for_run(db);
    BisectOracle oracle(setup, history.get(), ctx);
    oracle.set_good(r.good);
    const auto bad = oracle.judge(r.bad);
    if (bad == history::Verdict::Skip) {
        const auto& probe = oracle.probes().back();
        throw BenchmarkError(
            fmt::format("BAD ({}) cannot be measured: {}", r.bad.substr(0, 12), probe.detail),
            probe.source == "build failed"
                ? "fix the build command or pick a BAD commit that builds"
            : in.suite_from_commit ? "commit the suite there, or leave out --suite-from-commit to "
                                     "measure every commit with the current suite"
                                   : "pick a BAD commit where every benchmark of the suite runs");
    }
    r.moved = bad == history::Verdict::Moved;
    if (!r.moved) r.largest = largest_move(oracle, r);
    if (r.moved) {
        const auto outcome =
            history::bisect(line.size(), [&](std::size_t i) { return oracle.judge(line[i]); });
        r.first_moved = line[outcome.first_moved];
        r.last_unmoved = line[outcome.last_unmoved];
        for (const auto s : outcome.skipped)
            r.skipped.push_back(line[s]);
        r.change = oracle.change(*r.last_unmoved, *r.first_moved);
    }
    r.probes = oracle.probes();
    r.from_history = oracle.from_history();
    r.measured = oracle.measured();
    r.commit_info = runner::read_commits(ctx.cwd, line, env, ctx.runner);
    fmt::print("{}", reporter->render(r, {ctx.color, ctx.verbose()}));
    return 0;
}

void add_options(CLI::App& cmd, BisectInput& in) {
    cmd.add_option("GOOD", in.good, "A commit measuring as it should (older)")->required();
    cmd.add_option("BAD", in.bad, "A commit where the cost has moved (newer)")->required();
    cmd.add_option("NAME", in.name, "The benchmark to follow [every benchmark of the suite]");
    cmd.add_option("--build", in.build,
                   "Build command run in the worktree of each commit measured, in the same "
                   "directory relative to the repository (a shell command line, run by bash, "
                   "as cgbench-pr --build)")
        ->required();
    cmd.add_option("--build-timeout", in.build_timeout,
                   fmt::format("Stop a build after SEC seconds; the commit is then skipped [{:g}]",
                               runner::kDefaultBuildTimeout));
    cmd.add_option("--threshold", in.thresholds,
                   "A commit moved when a benchmark changes beyond this against GOOD, as "
                   "compare --threshold (repeatable) [cost=1%|1000]")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    add_worktree_run_options(cmd, in.run, in.suite_from_commit);
    add_format_option(cmd, in.format, report::Model::Bisect);
}

}  // namespace

Subcommand register_bisect(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "bisect",
        "Find the commit that changed a benchmark's cost:\n"
        "  cgbench bisect GOOD BAD --build CMD [NAME] [--suite FILE]\n"
        "  cgbench bisect GOOD BAD --build CMD [--name NAME] -- PROGRAM [ARGS...]");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<BisectInput>();
    add_options(*cmd, *input);
    cmd->footer(
        "Commits are taken on the first-parent line from GOOD to BAD (as `git rev-list\n"
        "--first-parent GOOD..BAD`). A commit's results come from the history when a clean\n"
        "run there recorded them; otherwise it is checked out in one worktree (under /tmp,\n"
        "removed at the end: builds after the first are incremental), built with --build in\n"
        "the directory matching the current one, measured with the current suite (checked\n"
        "before any build; --suite-from-commit: each commit's own), and recorded in the\n"
        "history as a bisect probe, on no branch's line. A commit whose build fails is\n"
        "skipped, as git bisect skip does. Each commit is compared with GOOD measured with\n"
        "the same fingerprint. The answer: the first commit beyond the threshold, its\n"
        "subject, the change against the commit before it and the functions that moved; when\n"
        "BAD is within the threshold, its largest move and a --threshold that would bisect "
        "it.\n\n" +
        exit_code_help());
    return {cmd, [input, cmd](const Context& ctx) {
                input->run.command = program_arguments(*cmd, ctx.global);
                return execute(*input, ctx);
            }};
}

}  // namespace cgbench::cli
