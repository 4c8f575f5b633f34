// `cgbench pr`: the pull-request gate in one command. A pull request: the merge base of HEAD
// with the base and the work tree are built and measured with the same suite, compared once,
// and every report is written from that comparison. A push (no base): HEAD is measured and
// compared with the previous run of its branch in the history, and a regression there is
// alerted. Counts are deterministic, so nothing has to be stored between jobs.

// GCC 12 reports a null dereference inside CLI11's string splitting as inlined here; there
// is none (as in compare_command.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/pr.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

namespace fs = std::filesystem;

std::string pr_help_footer() {
    return "The base: --base, else what the CI names for a pull request (cgbench ci env;\n"
           "GitHub: origin/$GITHUB_BASE_REF; GitLab: the target's tip in merged-results\n"
           "pipelines and merge trains, else the merge request's diff base; see docs/ci/).\n"
           "No base (a push): branch mode, HEAD against the previous run of its branch in\n"
           "--history; a benchmark that fails there fails the run (exit 3), and a regression\n"
           "or a newly failing benchmark is alerted (--alert-webhook, --alert-issue) once.\n\n"
           "The base's run: with --history, a clean run of the merge base stored there\n"
           "under HEAD's fingerprint key and compilers, holding every benchmark of HEAD the\n"
           "base's suite defines, is the base: it is neither built nor measured (HEAD is\n"
           "measured first, to know its key and compilers). --no-reuse always builds it.\n"
           "Every report says which (base-source).\n\n"
           "No baseline: when the merge base has no suite file (the pull request that adds\n"
           "cgbench), every benchmark is reported as added and the gate passes, with a note.\n"
           "New benchmarks (those the base lacks; every one without a baseline) are measured\n"
           "3 times (or as their suite 'verify' says) and fail unless the 3 give the same\n"
           "counts. Base and head are measured at the same fixed paths (the sandbox's\n"
           "/cgbench/tree), whichever directory each is checked out in.\n\n"
           "Files in OUT-DIR: base.json, head.json (results), report.md, report.xml (JUnit),\n"
           "compare.json, console.txt, metrics.txt (OpenMetrics), summary.txt, exit-code,\n"
           "base-commit, base-label, base-source; no-baseline (the reason) when there is none;\n"
           "flame/NAME.svg: a differential flame graph of each regressed benchmark (at most 3,\n"
           "its program run again under Callgrind on both sides; --no-flame: none).\n\n"
           "Exit codes:\n"
           "  0  no regression\n"
           "  1  a regression, or a benchmark failing in HEAD only\n"
           "  2  bad usage or input (a base git does not know, a CI job without its variables)\n"
           "  3  a build failed, a side measured nothing, or (branch mode) a benchmark failed\n"
           "  4  environment error (git, Valgrind, database)\n"
           "130  interrupted (143 SIGTERM): the worktree and the build are gone\n"
           "--warn-only exits 0 instead of 1 or 3 (exit-code keeps the verdict); an alert that\n"
           "cannot be delivered is said and changes nothing.";
}

void add_options(CLI::App& cmd, config::PrInput& in) {
    cmd.add_option("--base", in.base,
                   "Compare with the merge base of HEAD with REF (e.g. origin/main) [the CI's; "
                   "none: branch mode]");
    cmd.add_option("--build", in.build,
                   "Build command, run with bash in the working directory (the same relative "
                   "directory in the base's worktree)");
    cmd.add_option("--suite", in.suite,
                   "Suite file, relative to the working directory [cgbench.toml]");
    cmd.add_option("--command", in.command,
                   "Measure this one command instead of a suite (shell words, split without a "
                   "shell; --name names it)");
    cmd.add_option("--name", in.name, "Benchmark name for --command [the command]");
    cmd.add_option("--threshold", in.threshold,
                   "The gate, e.g. 2% or cost=1%|1000,Ir=0.5%, checked before anything is built "
                   "[cost=1%|1000; env CGBENCH_THRESHOLD]");
    cmd.add_option("--out-dir", in.out_dir, "Where the files go [cgbench-pr]");
    cmd.add_option("--shard", in.shard,
                   "Measure shard K of N only (base-K.json, head-K.json; no report: run "
                   "--report-only on the collected shards) [the CI's parallel job]");
    cmd.add_flag("--report-only", in.report_only,
                 "Join OUT-DIR/{base,head}-*.json shards if present, then report");
    cmd.add_option("--history", in.history,
                   "Record HEAD's run in this history (a file, or any --db location such as "
                   "postgresql://...); in branch mode, compare it with the previous run of its "
                   "branch there");
    cmd.add_flag("--no-reuse", in.no_reuse,
                 "Build and measure the base even when --history holds a clean run of it "
                 "measured as HEAD is (same fingerprint key and compilers)");
    cmd.add_flag(
        "--warn-only", in.warn_only,
        "Report regressions and failed benchmarks, but exit 0 (exit-code keeps the verdict)");
    cmd.add_flag("--keep-raw", in.keep_raw,
                 "Keep Valgrind's raw files under OUT-DIR/raw-{base,head}");
    cmd.add_flag("--no-flame", in.no_flame,
                 "Draw no differential flame graphs of regressed benchmarks (OUT-DIR/flame/)");
    cmd.add_option("--alert-webhook", in.alert_webhook,
                   "Branch mode: POST an alert for each new regression to this URL (a secret: "
                   "prefer env CGBENCH_ALERT_WEBHOOK)");
    cmd.add_option("--alert-format", in.alert_format,
                   "The webhook's payload: json (cgbench-alert/1) or slack [json]");
    cmd.add_option("--alert-issue", in.alert_issue,
                   "Branch mode: also open (or comment on) an issue with the CI's token: github "
                   "(GITHUB_TOKEN) or gitlab (CGBENCH_GITLAB_TOKEN)");
    cmd.add_option("--alert-timeout", in.alert_timeout,
                   "Seconds an alert delivery may take, per attempt (3 attempts) [10]");
    cmd.add_option("--alert-state", in.alert_state,
                   "Where the steps already alerted are kept [alerts.json beside a --history "
                   "file]");
}

std::string first_line(const fs::path& file) {
    const auto text = util::read_file(file);
    return std::string(util::trim(text.substr(0, text.find('\n'))));
}

void remove_files(const fs::path& dir, std::initializer_list<const char*> names) {
    std::error_code ec;
    for (const auto* n : names)
        fs::remove(dir / n, ec);
}

// Writes the verdict's code, and exits with it (0 under --warn-only, said).
int finish(const config::PrPlan& plan, pr::Verdict v, const std::string& what, const Context& ctx) {
    util::write_file_atomic(plan.out_dir / "exit-code", std::to_string(v.code) + "\n");
    if (v.code == 3) {
        const auto rest = v.summary.substr(std::min(v.summary.find("  "), v.summary.size()));
        util::write_file_atomic(plan.out_dir / "summary.txt",
                                fmt::format("FAIL  {} ({})\n", what, util::trim(rest)));
    }
    if (v.code != 0 && plan.warn_only) {
        pr::say(ctx, fmt::format("warning: {} (--warn-only: exit 0 instead of {})", what, v.code));
        return 0;
    }
    return v.code;
}

// `built`: the base as built and measured here (null with --report-only): its regressed
// benchmarks get flame graphs.
int report_pull_request(const config::PrPlan& plan, const Context& ctx,
                        const pr::BaseResults* built = nullptr, pr::Tools* tools = nullptr) {
    pr::join_shards(plan, "head", ctx);
    pr::Verdict v;
    if (fs::exists(plan.out_dir / "no-baseline")) {
        remove_files(plan.out_dir, {"base.json"});
        v = pr::report(plan, pr::Against::Nothing, first_line(plan.out_dir / "no-baseline"), ctx)
                .second;
    } else {
        pr::join_shards(plan, "base", ctx);
        const auto [comparison, verdict] = pr::report(plan, pr::Against::BaseFile, "", ctx);
        pr::annotate_lines(plan, comparison, ctx);
        v = verdict;
        if (built != nullptr && tools != nullptr)
            pr::draw_flame_graphs(plan, comparison, *built, *tools, ctx);
    }
    return finish(plan, v, v.summary, ctx);
}

// A push: HEAD alone, against the previous run of its branch when there is a history.
int branch_mode(const config::PrPlan& plan, const Context& ctx) {
    remove_files(plan.out_dir,
                 {"base-commit", "base.json", "no-baseline", "base-label", "base-source"});
    pr::say(ctx, plan.history
                     ? fmt::format("no base: measuring HEAD, then comparing it with the previous "
                                   "run of its branch in {}",
                                   *plan.history)
                     : "no base and no history database: measuring HEAD only");
    pr::Tools tools(ctx);
    const int measured = pr::measure_head(plan, nullptr, tools, ctx).code;
    auto [comparison, v] =
        plan.history
            ? pr::report(plan, pr::Against::Previous, "", ctx)
            : pr::report(plan, pr::Against::Nothing,
                         "no history database to compare with (cgbench pr --history DB)", ctx);
    if (plan.alerts.any()) pr::send_alerts(plan, comparison, ctx);
    if (measured == 3) {
        v.code = 3;
        return finish(plan, v, "a benchmark failed in HEAD", ctx);
    }
    return finish(plan, v, v.summary, ctx);
}

int execute(const config::PrInput& in, const Context& ctx) {
    const auto plan = config::plan_pr(in, ctx.env, ctx.cwd);
    util::ensure_writable_dir(plan.out_dir, "--out-dir");
    // The verdict files of an earlier run never survive into this one.
    remove_files(plan.out_dir, {"exit-code", "summary.txt", "report.md", "report.xml",
                                "compare.json", "console.txt", "metrics.txt", "compared-base.json",
                                "compared-head.json", "annotations.txt", "codequality.json"});
    std::error_code ec;
    fs::remove_all(plan.out_dir / "flame", ec);  // drawn again for this run's regressions
    if (plan.report_only) return report_pull_request(plan, ctx);
    if (!plan.base) return branch_mode(plan, ctx);
    pr::Tools tools(ctx);
    const auto base = pr::find_merge_base(plan, ctx);
    // HEAD first: its fingerprint and compilers decide whether a stored run of the base can
    // stand for building and measuring it.
    const auto head = pr::measure_head(plan, &base, tools, ctx);
    const auto built = pr::obtain_base_results(plan, base, head, tools, ctx);
    if (plan.shard) return 0;  // reported once every shard is in (--report-only)
    return report_pull_request(plan, ctx, &built, &tools);
}

}  // namespace

Subcommand register_pr(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "pr",
        "The pull-request gate: build and measure the merge base and the work tree, compare, "
        "write every report:\n"
        "  cgbench pr --base origin/main --build 'make -j' [--suite cgbench.toml]\n"
        "  cgbench pr --history DB --build CMD        (a push: HEAD against its branch)\n"
        "  cgbench pr --report-only                   (join the shards of a parallel job)");
    add_global_flags(*cmd, global);
    cmd->footer(pr_help_footer());
    auto input = std::make_shared<config::PrInput>();
    add_options(*cmd, *input);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
