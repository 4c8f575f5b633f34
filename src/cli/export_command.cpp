// `cgbench export [RUN]`: a run's results in the input format of Bencher,
// github-action-benchmark or GitLab's metrics report (OpenMetrics), so cgbench numbers feed the
// dashboards people already have.

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "access/history_url.hpp"
#include "access/run_ref.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "report/exporter.hpp"
#include "util/fs.hpp"

namespace cgbench::cli {

namespace {

struct ExportInput {
    std::optional<std::string> run;
    config::DbInput db;
    std::string format;
    std::optional<std::string> out;
};

int execute(const ExportInput& in, const Context& ctx) {
    const auto exporter = report::make_exporter(report::parse_export_format(in.format));
    std::unique_ptr<util::OutputFile> out_file;
    if (in.out) out_file = std::make_unique<util::OutputFile>(*in.out);
    access::RunResolver resolver(access::history_source(config::resolve_db(in.db, ctx.env)),
                                 ctx.cwd, ctx.env, ctx.runner, history::SourceLines::Read);
    const auto resolved = in.run ? resolver.resolve(*in.run) : resolver.latest();
    if (const auto n = report::skipped(resolved.run); n > 0) {
        warn(fmt::format("{} failed benchmark{} left out of the export", n, n == 1 ? "" : "s"));
    }
    const std::string text = exporter->render(resolved.run);
    if (out_file) {
        out_file->commit(text);
    } else {
        print_out(text);
    }
    return 0;
}

}  // namespace

Subcommand register_export(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("export",
                                   "Export a run for another tool:\n"
                                   "  cgbench export [RUN] --format FORMAT");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<ExportInput>();
    cmd->add_option("RUN", input->run, "Result file, run id or git ref [the latest run]");
    cmd->add_option("--format", input->format,
                    "bencher (Bencher Metric Format), github-action-benchmark "
                    "(customSmallerIsBetter) or openmetrics (GitLab metrics.txt)")
        ->required();
    cmd->add_option("-o,--out", input->out,
                    "Write here (a regular file atomically) instead of stdout");
    add_db_options(*cmd, input->db);
    cmd->footer(
        "bencher: {NAME: {cost, instructions, l1-hits, ll-hits, ram-hits: {value}}}\n"
        "github-action-benchmark: [{name, unit, value, extra}], a \"NAME\" series in "
        "cost\nand a \"NAME (Ir)\" series in instructions per benchmark.\n"
        "openmetrics: cgbench_cost{benchmark=\"NAME\"} N, and cgbench_instructions,\n"
        "cgbench_l1_hits, cgbench_ll_hits, cgbench_ram_hits; ends with # EOF.\n\n" +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
