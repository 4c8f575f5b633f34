// `cgbench steps [NAME] [--branch B]`: every lasting change of each benchmark's cost between
// consecutive measured commits of a branch, labelled code, environment or wobble, grouped by
// the commit where it happened, with what moved.

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/history_support.hpp"
#include "cli/steps_flame.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "history/lines.hpp"
#include "history/order.hpp"
#include "report/steps_reporter.hpp"

namespace cgbench::cli {

namespace {

struct StepsInput {
    std::optional<std::string> name;
    std::optional<std::string> branch;
    config::DbInput db;
    std::optional<std::string> format;
    StepsFlameInput flame;
};

int execute(const StepsInput& in, const Context& ctx) {
    const auto reporter = chosen_format(in.format, report::Model::Steps, "steps").steps();
    check_steps_flame(in.flame);
    const auto path = config::resolve_db(in.db, ctx.env);
    if (!path) throw UsageError("steps needs the database, and --no-db was given");
    const auto store = open_history(*path);
    // Each benchmark's series is read, searched and dropped in turn: the history is never
    // held whole (a million results would be ~100 MB to allocate and fault in).
    auto h = store->load_runs();
    history::order_runs(h);
    const bool verbose = ctx.verbose();
    history::StepFinder finder(
        h, {history::default_branch(h, std::nullopt), in.branch, verbose, verbose});
    bool found = false;
    const auto add = [&](const history::Series& s) {
        found = true;
        finder.add(s);
    };
    if (in.name) {
        store->scan_series(h, *in.name, SIZE_MAX, add);
    } else {
        store->scan_series(
            h, [](std::string_view) { return true; }, SIZE_MAX, add);
    }
    if (in.name && !found) unknown_benchmark(*store, *in.name);
    if (in.branch) check_branch(h, *in.branch);
    report::StepsReport model;
    model.database = store->name();
    model.benchmark = in.name;
    model.history = &h;
    model.branches = finder.finish();
    explain_steps(*store, h, model.branches);
    model.commits = commit_subjects(h, runs_of(model.branches), ctx);
    model.verbose = verbose;
    fmt::print("{}", reporter->render(model, {ctx.color, verbose}));
    if (in.flame.dir) {
        std::fflush(stdout);  // the report before the builds' news
        draw_step_flames(in.flame, h, model.branches, ctx);
    }
    return 0;
}

}  // namespace

Subcommand register_steps(CLI::App& app, GlobalOptions& global) {
    auto* cmd =
        app.add_subcommand("steps",
                           "Find the lasting changes in the history and say what caused them:\n"
                           "  cgbench steps [NAME] [--branch B]\n"
                           "  cgbench steps [NAME] --flame DIR --build CMD [--flame-count N]");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<StepsInput>();
    cmd->add_option("NAME", input->name, "Only this benchmark");
    cmd->add_option("--branch", input->branch, "Only this branch [every branch, default first]");
    add_db_options(*cmd, input->db);
    add_format_option(*cmd, input->format, report::Model::Steps);
    add_steps_flame_options(*cmd, input->flame);
    cmd->footer(
        "A step is a change of a benchmark's cost between consecutive measured commits of a\n"
        "branch that the next result does not undo (runs with uncommitted changes are left\n"
        "out; a commit measured twice counts once). Benchmarks stepping at one commit are one\n"
        "event. Each step is labelled:\n"
        "  environment  the fingerprint changed (Valgrind, glibc, loader cache, CPU baseline,\n"
        "               compiler, cgbench...): never taken for code\n"
        "  code         same fingerprint, and beyond the benchmark's own wobble\n"
        "  wobble       within that wobble (listed with -v)\n"
        "The wobble bound is Q3 + 3*IQR of how far each result is from the nearer of its\n"
        "neighbours (and of repeated measurements of one commit): 0 for exact counts, so\n"
        "every lasting change is a step. A change undone by the next result is a one-commit\n"
        "blip, not a step (-v lists them). Each branch lists its epochs: where each\n"
        "fingerprint starts; results of different epochs are never compared.\n\n"
        "--flame DIR draws the differential flame graph of each of the worst code steps\n"
        "(--flame-count, largest moves first) into DIR/NAME-COMMIT.svg, as `cgbench pr` draws\n"
        "one: the step's two commits are checked out in one worktree (under /tmp), built with\n"
        "--build, and the benchmark measured again under Callgrind on both (each commit\n"
        "built once). Widths are the later commit's cost; red costlier than before, blue\n"
        "cheaper. A step that cannot be drawn is said on stderr; the report is unchanged.\n\n" +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
