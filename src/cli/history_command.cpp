// `cgbench history [NAME]`: one benchmark's series from the history database (commit, date,
// cost, Ir, change against the previous result), or the list of stored runs.

#include <fmt/format.h>

#include <limits>
#include <memory>

#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/history_support.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "report/history_reporter.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct HistoryInput {
    std::optional<std::string> name;
    config::DbInput db;
    std::optional<std::string> format;
    std::optional<std::size_t> limit;
};

constexpr std::size_t kDefaultRunLimit = 20;

std::unique_ptr<history::HistoryBackend> open_store(const config::DbInput& input,
                                                    const exec::EnvMap& env) {
    const auto path = config::resolve_db(input, env);
    if (!path) throw UsageError("history needs the database, and --no-db was given");
    return open_history(*path);
}

int execute(const HistoryInput& in, const Context& ctx) {
    const auto reporter = chosen_format(in.format, report::Model::History, "history").history();
    auto store = open_store(in.db, ctx.env);
    const report::RenderOptions ro{ctx.color, ctx.verbose()};
    if (!in.name) {
        print_out(reporter->runs(store->runs(in.limit.value_or(kDefaultRunLimit)), ro));
        return 0;
    }
    const auto h = store->load_history(*in.name, in.limit.value_or(SIZE_MAX));
    if (h.series.empty()) unknown_benchmark(*store, *in.name);
    print_out(reporter->series(report::view_series(h, h.series.front()), ro));
    return 0;
}

}  // namespace

Subcommand register_history(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("history",
                                   "Show stored results:\n"
                                   "  cgbench history          the latest runs\n"
                                   "  cgbench history NAME     one benchmark over time");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<HistoryInput>();
    cmd->add_option("NAME", input->name, "Benchmark name");
    add_db_options(*cmd, input->db);
    add_format_option(*cmd, input->format, report::Model::History);
    cmd->add_option("-n,--limit", input->limit,
                    "Show the last N entries [all results of NAME; 20 runs]")
        ->check(positive_count());
    cmd->footer(
        "The change column compares each cost with the previous ok result of its epoch: a\n"
        "line marks where a new fingerprint starts (results measured differently are not\n"
        "compared). A + after the commit marks a run measured with uncommitted changes.\n\n" +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
