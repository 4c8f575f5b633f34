// `cgbench report --html FILE`: the history database as one self-contained HTML page to
// navigate: the steps found, a line per branch in each benchmark's chart, epochs, commit
// links.

#include <fmt/format.h>

#include <memory>
#include <set>
#include <stdexcept>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/history_support.hpp"
#include "config/benchmark_plan.hpp"
#include "config/commit_url.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/git.hpp"
#include "history/lines.hpp"
#include "report/html_history_reporter.hpp"
#include "util/fs.hpp"
#include "util/regex.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::cli {

namespace {

struct ReportInput {
    config::DbInput db;
    std::string html;
    std::size_t last = 50;
    std::size_t max_benchmarks = report::kMaxHtmlBenchmarks;
    std::optional<std::string> filter;
    std::string axis = "relative";
    std::optional<std::string> commit_url;
};

std::unique_ptr<history::HistoryBackend> open_store(const std::filesystem::path& path) {
    auto store = open_history(path);
    if (store->run_count() == 0) {
        throw UsageError(fmt::format("the history database {} has no runs", store->name()),
                         "record runs with `cgbench run` first");
    }
    return store;
}

// Where commits link to: --commit-url, else the CI's variables, else the git remote.
std::optional<std::string> commit_url(const ReportInput& in, const Context& ctx) {
    if (in.commit_url) return config::check_commit_url(*in.commit_url);
    if (auto ci = config::commit_url_from_ci(ctx.env)) return ci;
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    const auto remote = git.run({"remote", "get-url", "origin"});
    return remote ? config::commit_url_from_remote(*remote) : std::nullopt;
}

std::vector<std::size_t> runs_shown(const history::History& h) {
    std::set<std::size_t> runs;
    for (const auto& s : h.series) {
        for (const auto& r : s.results)
            runs.insert(r.run);
    }
    return {runs.begin(), runs.end()};
}

int execute(const ReportInput& in, const Context& ctx) {
    const auto filter = in.filter ? std::optional(config::filter_regex(*in.filter)) : std::nullopt;
    const auto path = config::resolve_db(in.db, ctx.env);
    if (!path) throw UsageError("report needs the database, and --no-db was given");
    const auto url = commit_url(in, ctx);
    util::OutputFile out(in.html);  // an unwritable destination fails before any reading
    const auto store = open_store(*path);
    const auto h = store->load_history(
        [&filter](std::string_view name) { return !filter || filter->search(std::string(name)); },
        in.last);
    if (h.series.empty()) {
        throw UsageError(fmt::format("no benchmark in {} matches --filter '{}'", store->name(),
                                     util::printable(in.filter.value_or(""))),
                         "the filter is a regular expression searched in each name; `cgbench "
                         "history` lists the runs");
    }
    report::HtmlHistory page;
    page.database = store->name();
    page.generated = util::iso8601_at(ctx.now());
    page.limit = in.last;
    page.filter = in.filter;
    page.history = &h;
    page.default_branch = history::default_branch(h, std::nullopt);
    page.steps = explained_steps(*store, h, {page.default_branch, std::nullopt, false});
    page.commits = commit_subjects(h, runs_shown(h), ctx);
    page.commit_url = url;
    page.axis = in.axis == "zero" ? report::Axis::Zero : report::Axis::Relative;
    page.max_benchmarks = in.max_benchmarks;
    out.commit(report::render_html_history(page));
    const auto shown = std::min(h.series.size(), in.max_benchmarks);
    if (shown < h.series.size()) {
        warn(
            fmt::format("{} shows {} of {} benchmarks (those with steps first): choose with "
                        "--filter, or raise --max-benchmarks",
                        out.target().string(), shown, h.series.size()));
    }
    if (!ctx.global.quiet) {
        print_out(fmt::format("wrote {}: {} benchmark{}\n", out.target().string(), shown,
                              shown == 1 ? "" : "s"),
                  out.is_stdout() ? Stream::Stderr : Stream::Stdout);
    }
    return 0;
}

}  // namespace

Subcommand register_report(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("report",
                                   "Write the history as an HTML page to navigate:\n"
                                   "  cgbench report --html FILE");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<ReportInput>();
    cmd->add_option("--html", input->html,
                    "Write one self-contained HTML page here (a regular file atomically): the "
                    "steps found, a summary "
                    "table, then each benchmark's chart and results")
        ->required();
    cmd->add_option("--last", input->last, "Show the last N results of each benchmark [50]")
        ->check(positive_count());
    cmd->add_option("--max-benchmarks", input->max_benchmarks,
                    fmt::format("Show at most N benchmarks, those with steps first [{}]",
                                report::kMaxHtmlBenchmarks))
        ->check(positive_count());
    cmd->add_option("--filter", input->filter,
                    "Only the benchmarks whose name matches (RE2 syntax, searched anywhere in "
                    "the name)");
    cmd->add_option("--axis", input->axis,
                    "relative: % against the first result of each epoch, at least ±1% wide; "
                    "zero: the cost from zero [relative]")
        ->check(CLI::IsMember({"relative", "zero"}));
    cmd->add_option("--commit-url", input->commit_url,
                    "Link commits to this URL, {commit} replaced by the commit [from "
                    "GITHUB_SERVER_URL/GITHUB_REPOSITORY, CI_PROJECT_URL, or the git remote "
                    "origin on GitHub, GitLab, Bitbucket or Codeberg]");
    add_db_options(*cmd, input->db);
    cmd->footer(
        "Each chart has a line per branch (the default branch first: main, master, or the\n"
        "one with most runs); results measured with uncommitted changes are hollow points\n"
        "off the lines; failed results are crosses on the x axis. Where the fingerprint\n"
        "changes a dashed rule starts a new epoch: nothing is compared across it. Steps (as\n"
        "`cgbench steps` finds them) are marked with their change and label and listed at\n"
        "the top. The page loads nothing from elsewhere; its one inline script (allowed by\n"
        "its hash) adds a name filter, branch switches and hover details, and the page\n"
        "reads without it.\n\n" +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
