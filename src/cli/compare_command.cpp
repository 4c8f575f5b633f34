// `cgbench compare`: the pull-request gate. Resolves BASE and HEAD (result file, run id or
// git ref), computes the comparison, renders it, and exits 1 when it finds a regression.

#include <fmt/format.h>

// GCC 12 reports a null dereference inside CLI11's detail::split (std::vector<std::string>
// growing) in this file, depending on how much else it inlines: a false positive (the same
// one the ThreadSanitizer build shows). CLI11 is only included here for the options.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include "cli/cli11.hpp"
#pragma GCC diagnostic pop
#include <filesystem>
#include <memory>

#include "access/history_url.hpp"
#include "access/run_ref.hpp"
#include "cli/command.hpp"
#include "cli/report_outputs.hpp"
#include "compare/comparison.hpp"
#include "config/compare_options.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "report/compare_summary.hpp"
#include "report/reporter.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

std::string compare_help_footer() {
    return fmt::format(
        "BASE and HEAD are each a result file (cgbench run --out), a run id (cgbench history)\n"
        "or a git ref (the latest run recorded at that commit, clean work trees first).\n"
        "Without HEAD: the latest run. Without BASE: the latest run at the merge base of HEAD\n"
        "with --base-branch (default: main, else master, origin/main, origin/master).\n"
        "--previous: BASE is the previous run of HEAD's branch in the history (the latest\n"
        "clean run measured the same way); none yet counts as no baseline. --no-baseline WHY:\n"
        "there is none (a first pull request): every benchmark is added, WHY is noted.\n\n"
        "Thresholds (--threshold, repeatable; CGBENCH_THRESHOLD is read first):\n"
        "  [GLOB:][METRIC=]REL%[|ABS][,...]  or  [GLOB:]METRIC=off    (METRIC: cost if omitted)\n"
        "  A metric regresses when it grows by more than REL% AND by more than ABS units;\n"
        "  it improves when it shrinks by as much. METRIC=off stops gating it. For each\n"
        "  benchmark the last matching rule wins: the default, the threshold its result\n"
        "  recorded (suite `threshold`, run --threshold), then these, GLOB rules last.\n"
        "  Examples: 2%   cost=1%,Ir=0.5%|10000   'parse/*:5%'   cost=off,Ir=0%|0\n"
        "  Metrics: {}\n"
        "  Default: cost=1%|1000. Changes under 0.1% count as unchanged.\n\n"
        "The gate fails on a regression, on a benchmark that fails in HEAD (unless it failed in\n"
        "BASE too) and, with --fail-on-missing, on a benchmark missing from HEAD. Results\n"
        "measured differently (tool, Valgrind, glibc, geometry, weights, CPU baseline) are\n"
        "refused with exit 2 unless --force.\n\n"
        "Exit codes:\n"
        "  0  no regression\n"
        "  1  regression over threshold (or a failed or, with --fail-on-missing, missing one)\n"
        "  2  bad input: unknown ref or run id, unreadable file, fingerprints differ, bad option\n"
        "  4  the history database is damaged, unreadable or from a newer cgbench",
        metrics::metric_names());
}

// Where BASE comes from besides the positional argument, and how the sides are called.
void add_base_options(CLI::App& cmd, config::CompareInput& in) {
    cmd.add_option("--base-branch", in.base_branch,
                   "Branch whose merge base with HEAD is the default BASE [main, else master; "
                   "env CGBENCH_BASE_BRANCH]");
    cmd.add_flag("--previous", in.previous,
                 "BASE: the previous run of HEAD's branch in the history database");
    cmd.add_option("--no-baseline", in.no_baseline,
                   "There is no BASE, for this reason: every benchmark is added");
    cmd.add_option("--base-label", in.base_label, "Name BASE so in the report");
    cmd.add_option("--head-label", in.head_label, "Name HEAD so in the report");
}

void add_options(CLI::App& cmd, config::CompareInput& in) {
    cmd.add_option("BASE", in.base, "Baseline: result file, run id or git ref");
    cmd.add_option("HEAD", in.head, "Candidate: result file, run id or git ref [latest run]");
    add_db_options(cmd, in.db);
    add_base_options(cmd, in);
    cmd.add_option("--threshold", in.thresholds,
                   "[GLOB:][METRIC=]REL%[|ABS],... (repeatable; see below) [cost=1%|1000]")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    cmd.add_flag("--fail-on-missing", in.fail_on_missing,
                 "A benchmark in BASE but not in HEAD fails the gate");
    cmd.add_flag("--force", in.force,
                 "Compare results measured differently (warns in every format)");
    add_format_option(cmd, in.format, report::Model::Compare);
    cmd.add_option(
        "-o,--out", in.out,
        "Write the report here (a regular file atomically) instead of stdout, which then gets the "
        "summary line");
    add_report_option(cmd, in.reports, report::Model::Compare, false);
}

// BASE as the plan chooses it; nullopt when there is none (then `why` says so).
std::optional<access::ResolvedRun> resolve_base(access::RunResolver& resolver,
                                                const config::ComparePlan& plan,
                                                const access::ResolvedRun& head, std::string& why) {
    using config::BaseChoice;
    switch (plan.base_choice) {
        case BaseChoice::Named:
            return resolver.resolve(*plan.base, head.run_ids);
        case BaseChoice::MergeBase:
            return resolver.at_merge_base(head, plan.base_branch);
        case BaseChoice::Previous: {
            auto previous = resolver.previous_on_branch(head);
            if (!previous) {
                why = fmt::format("no earlier run of branch {} measured the same way is stored",
                                  util::printable(head.run.git.branch.value_or("")));
            }
            return previous;
        }
        case BaseChoice::NoBaseline:
            why = plan.no_baseline;
            return std::nullopt;
    }
    return std::nullopt;
}

// The functions of the benchmarks `c` gates, read from the stored runs the resolver read
// without them, and the functions that moved: the rest of two runs' functions are never read.
void read_gated_functions(access::RunResolver& resolver, const access::ResolvedRun& base,
                          const access::ResolvedRun& head, compare::Comparison& c) {
    std::vector<BenchmarkResult*> bases, heads;
    std::vector<compare::BenchmarkComparison*> gated;
    for (auto& b : c.benchmarks) {
        if (!b.lists_moved() || !b.moved.empty() || !b.base || !b.head) continue;
        bases.push_back(&*b.base);
        heads.push_back(&*b.head);
        gated.push_back(&b);
    }
    if (gated.empty()) return;
    resolver.read_functions(base, bases);
    resolver.read_functions(head, heads);
    for (auto* b : gated)
        b->attribute_moved();
}

compare::Comparison build_comparison(access::RunResolver& resolver,
                                     const config::ComparePlan& plan) {
    std::vector<std::string> refs;
    if (plan.head) refs.push_back(*plan.head);
    if (plan.base_choice == config::BaseChoice::Named && plan.base) refs.push_back(*plan.base);
    resolver.look_up(refs);
    auto head = plan.head ? resolver.resolve(*plan.head) : resolver.latest();
    std::string why;
    auto base = resolve_base(resolver, plan, head, why);
    auto head_side = compare::side_of(head.run, plan.head_label.value_or(head.label));
    if (!base) {
        auto comparison = compare::compare_to_nothing(std::move(head.run), std::move(head_side),
                                                      plan.options, why);
        if (plan.base_label) comparison.base.label = *plan.base_label;
        comparison.warnings.insert(comparison.warnings.end(), head.warnings.begin(),
                                   head.warnings.end());
        return comparison;
    }
    auto base_side = compare::side_of(base->run, plan.base_label.value_or(base->label));
    auto comparison =
        compare::compare_runs(std::move(base->run), std::move(base_side), std::move(head.run),
                              std::move(head_side), plan.options);
    read_gated_functions(resolver, *base, head, comparison);
    for (const auto* side : {&*base, &head}) {
        comparison.warnings.insert(comparison.warnings.end(), side->warnings.begin(),
                                   side->warnings.end());
    }
    return comparison;
}

int execute(const config::CompareInput& in, const Context& ctx) {
    const auto& format = chosen_format(in.format, report::Model::Compare, "compare");
    const auto plan = config::plan_compare(in, ctx.env);
    std::unique_ptr<util::OutputFile> out_file;
    if (plan.out) out_file = std::make_unique<util::OutputFile>(*plan.out);
    auto reports =
        open_reports(in.reports, report::Model::Compare, "compare", false,
                     plan.out ? std::vector{plan.out->string()} : std::vector<std::string>{});

    auto comparison = compare_as_planned(plan, ctx, history::SourceLines::Skip);
    write_reports(reports, comparison, ctx.verbose());

    const report::RenderOptions ro{(!out_file || out_file->is_stdout()) && ctx.color,
                                   ctx.verbose()};
    const std::string text = format.compare()->render(comparison, ro);
    if (out_file) {
        out_file->commit(text);
        if (!ctx.global.quiet) {
            print_out(fmt::format("{}  {}\n", report::gate_word(comparison),
                                  report::summary_line(comparison, util::printable)),
                      out_file->is_stdout() ? Stream::Stderr : Stream::Stdout);
        }
    } else if (!(ctx.global.quiet && format.terminal)) {
        print_out(text);
    }
    return static_cast<int>(comparison.exit_code());
}

}  // namespace

compare::Comparison compare_as_planned(const config::ComparePlan& plan, const Context& ctx,
                                       history::SourceLines lines) {
    access::RunResolver resolver(access::history_source(plan.db), ctx.cwd, ctx.env, ctx.runner,
                                 {lines, history::KeptFunctions::Skip});
    auto comparison = build_comparison(resolver, plan);
    if (comparison.forced) warn(report::forced_warning(comparison));
    return comparison;
}

Subcommand register_compare(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("compare",
                                   "Gate: compare HEAD against BASE and exit 1 on a "
                                   "regression:\n"
                                   "  cgbench compare [OPTIONS] [BASE] [HEAD]");
    add_global_flags(*cmd, global);
    cmd->footer(compare_help_footer());
    auto input = std::make_shared<config::CompareInput>();
    add_options(*cmd, *input);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
