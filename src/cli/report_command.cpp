// `cgbench report --html FILE`: the history database as one self-contained HTML page, a
// chart of each benchmark's cost over the recorded runs.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>

#include "cli/command.hpp"
#include "config/benchmark_plan.hpp"
#include "config/db_options.hpp"
#include "core/errors.hpp"
#include "exec/environment.hpp"
#include "report/html_history_reporter.hpp"
#include "store/history_store.hpp"
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
    std::optional<std::string> filter;
};

store::HistoryStore open_store(const std::filesystem::path& path) {
    auto store = open_history(path);
    if (store.run_count() == 0) {
        throw UsageError(fmt::format("the history database {} has no runs", path.string()),
                         "record runs with `cgbench run` first");
    }
    return store;
}

int execute(const ReportInput& in, const GlobalOptions& global) {
    const auto filter = in.filter ? std::optional(config::filter_regex(*in.filter)) : std::nullopt;
    const auto path = config::resolve_db(in.db, exec::current_environment());
    if (!path) throw UsageError("report needs the database, and --no-db was given");
    util::OutputFile out(in.html);  // an unwritable destination fails before any reading
    auto store = open_store(*path);
    auto series = store.all_series(
        in.last, [&filter](const std::string& name) { return !filter || filter->search(name); });
    if (series.empty()) {
        throw UsageError(fmt::format("no benchmark in {} matches --filter '{}'", path->string(),
                                     util::printable(in.filter.value_or(""))),
                         "the filter is a regular expression searched in each name; `cgbench "
                         "history` lists the runs");
    }
    const std::size_t benchmarks = series.size();
    out.commit(report::render_html_history(
        {path->string(), util::now_iso8601(), in.last, in.filter, std::move(series)}));
    if (!global.quiet) {
        print_out(fmt::format("wrote {}: {} benchmark{}\n", out.target().string(), benchmarks,
                              benchmarks == 1 ? "" : "s"),
                  out.is_stdout() ? Stream::Stderr : Stream::Stdout);
    }
    return 0;
}

}  // namespace

Subcommand register_report(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("report",
                                   "Write the history as an HTML page of plots:\n"
                                   "  cgbench report --html FILE");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<ReportInput>();
    cmd->add_option("--html", input->html,
                    "Write one self-contained HTML file (atomically): a summary table, then "
                    "each benchmark's cost over its recorded results")
        ->required();
    cmd->add_option("--last", input->last, "Show the last N results of each benchmark [50]")
        ->check(positive_count());
    cmd->add_option("--filter", input->filter,
                    "Only the benchmarks whose name matches (RE2 syntax, searched anywhere in "
                    "the name)");
    add_db_options(*cmd, input->db);
    cmd->footer(
        "Results measured with different fingerprints are drawn as separate lines, broken\n"
        "where the fingerprint changes; failed results are crosses on the x axis. The page\n"
        "loads nothing from elsewhere and runs no script.\n\n" +
        exit_code_help());
    return {cmd, [input, &global] { return execute(*input, global); }};
}

}  // namespace cgbench::cli
