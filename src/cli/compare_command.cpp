// `cgbench compare`: the pull-request gate. Resolves BASE and HEAD (result file, run id or
// git ref), computes the comparison, renders it, and exits 1 when it finds a regression.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>

#include "cli/command.hpp"
#include "compare/comparison.hpp"
#include "config/compare_options.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "report/compare_summary.hpp"
#include "report/reporter.hpp"
#include "store/run_ref.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

std::string compare_help_footer() {
    return fmt::format(
        "BASE and HEAD are each a result file (cgbench run --out), a run id (cgbench history)\n"
        "or a git ref (the latest run recorded at that commit, clean work trees first).\n"
        "Without HEAD: the latest run. Without BASE: the latest run at the merge base of HEAD\n"
        "with --base-branch (default: main, else master, origin/main, origin/master).\n\n"
        "Thresholds (--threshold, repeatable; CGBENCH_THRESHOLD is read first):\n"
        "  [GLOB:]METRIC=REL%[|ABS][,METRIC=...]\n"
        "  A metric regresses when it grows by more than REL% AND by more than ABS units;\n"
        "  it improves when it shrinks by as much. METRIC=off stops gating it. For each\n"
        "  benchmark the last matching rule wins, GLOB rules after global ones.\n"
        "  Examples: cost=2%   cost=1%,Ir=0.5%|10000   'parse/*:cost=5%'   cost=off,Ir=0%|0\n"
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
        compare::metric_names());
}

void add_options(CLI::App& cmd, config::CompareInput& in) {
    cmd.add_option("BASE", in.base, "Baseline: result file, run id or git ref");
    cmd.add_option("HEAD", in.head, "Candidate: result file, run id or git ref [latest run]");
    add_db_options(cmd, in.db);
    cmd.add_option("--base-branch", in.base_branch,
                   "Branch whose merge base with HEAD is the default BASE [main, else master; "
                   "env CGBENCH_BASE_BRANCH]");
    cmd.add_option("--threshold", in.thresholds,
                   "[GLOB:]METRIC=REL%[|ABS],... (repeatable; see below) [cost=1%|1000]")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    cmd.add_flag("--fail-on-missing", in.fail_on_missing,
                 "A benchmark in BASE but not in HEAD fails the gate");
    cmd.add_flag("--force", in.force,
                 "Compare results measured differently (warns in every format)");
    cmd.add_option("--format", in.format, "Report: console, markdown, json, junit [console]");
    cmd.add_option("-o,--out", in.out,
                   "Write the report here (atomically) instead of stdout, which then gets the "
                   "summary line");
}

std::pair<store::ResolvedRun, store::ResolvedRun> resolve_sides(store::RunResolver& resolver,
                                                                const config::ComparePlan& plan) {
    auto head = plan.head ? resolver.resolve(*plan.head) : resolver.latest();
    auto base = plan.base ? resolver.resolve(*plan.base, head.run_ids)
                          : resolver.at_merge_base(head, plan.base_branch);
    return {std::move(base), std::move(head)};
}

int execute(const config::CompareInput& in, const GlobalOptions& global) {
    const auto env = exec::current_environment();
    const auto plan = config::plan_compare(in, env);
    std::unique_ptr<util::OutputFile> out_file;
    if (plan.out) out_file = std::make_unique<util::OutputFile>(*plan.out);

    exec::PosixProcessRunner runner;
    store::RunResolver resolver(plan.db, std::filesystem::current_path(), env, runner);
    auto [base, head] = resolve_sides(resolver, plan);
    auto base_side = compare::side_of(base.run, base.label);
    auto head_side = compare::side_of(head.run, head.label);
    auto comparison =
        compare::compare_runs(std::move(base.run), std::move(base_side), std::move(head.run),
                              std::move(head_side), plan.options);
    for (const auto& w : base.warnings)
        comparison.warnings.push_back(w);
    for (const auto& w : head.warnings)
        comparison.warnings.push_back(w);
    if (comparison.forced) warn(report::forced_warning(comparison));

    const report::RenderOptions ro{(!out_file || out_file->is_stdout()) && color_on_stdout(),
                                   global.verbose > 0};
    const std::string text = report::make_compare_reporter(plan.format)->render(comparison, ro);
    if (out_file) {
        out_file->commit(text);
        if (!global.quiet) {
            print_out(fmt::format("{}  {}\n", report::gate_word(comparison),
                                  report::summary_line(comparison, util::printable)),
                      out_file->is_stdout() ? Stream::Stderr : Stream::Stdout);
        }
    } else if (!(global.quiet && plan.format == report::Format::Console)) {
        print_out(text);
    }
    return static_cast<int>(comparison.exit_code());
}

}  // namespace

Subcommand register_compare(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("compare",
                                   "Gate: compare HEAD against BASE and exit 1 on a "
                                   "regression:\n"
                                   "  cgbench compare [OPTIONS] [BASE] [HEAD]");
    add_global_flags(*cmd, global);
    cmd->footer(compare_help_footer());
    auto input = std::make_shared<config::CompareInput>();
    add_options(*cmd, *input);
    return {cmd, [input, &global] { return execute(*input, global); }};
}

}  // namespace cgbench::cli
