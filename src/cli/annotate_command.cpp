// `cgbench annotate RUN NAME`: the costliest functions of one result, from a result file or
// the history (a run id or a git ref, as for `compare`).

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "access/history_url.hpp"
#include "access/run_ref.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "report/function_report.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct AnnotateInput {
    std::string run;
    std::string name;
    config::DbInput db;
    std::optional<std::string> format;
    std::size_t top = 20;
};

const BenchmarkResult& find_benchmark(const access::ResolvedRun& resolved,
                                      const std::string& name) {
    std::vector<std::string> names;
    for (const auto& b : resolved.run.benchmarks) {
        if (b.name == name) return b;
        if (names.size() < 10) names.push_back("'" + util::printable(b.name) + "'");
    }
    if (resolved.run.benchmarks.size() > names.size()) names.push_back("...");
    throw UsageError(fmt::format("{} has no benchmark named '{}'", util::printable(resolved.label),
                                 util::printable(name)),
                     names.empty() ? std::string("it has no benchmarks")
                                   : fmt::format("it has {}", util::join(names, ", ")));
}

int execute(const AnnotateInput& in, const Context& ctx) {
    const auto reporter =
        chosen_format(in.format, report::Model::Functions, "annotate").functions();
    access::RunResolver resolver(access::history_source(config::resolve_db(in.db, ctx.env)),
                                 ctx.cwd, ctx.env, ctx.runner);
    const auto resolved = resolver.resolve(in.run);
    const BenchmarkResult& b = find_benchmark(resolved, in.name);
    if (b.functions.empty()) {
        throw UsageError(fmt::format("'{}' in {} has no per-function costs",
                                     util::printable(b.name), util::printable(resolved.label)),
                         b.status == BenchStatus::Ok
                             ? "measure it again with this cgbench"
                             : "it failed; per-function costs exist only for measured results");
    }
    print_out(reporter->render(b, in.top, {}));
    return 0;
}

}  // namespace

Subcommand register_annotate(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "annotate",
        "Show the costliest functions of one result:\n"
        "  cgbench annotate [OPTIONS] RUN NAME\n"
        "RUN is a result file (cgbench run --out), a run id or a git ref (as for compare); "
        "NAME a benchmark in it (BENCH/REGION for a region).");
    add_global_flags(*cmd, global);
    cmd->footer(exit_code_help());
    auto input = std::make_shared<AnnotateInput>();
    cmd->add_option("RUN", input->run, "Result file, run id or git ref")->required();
    cmd->add_option("NAME", input->name, "Benchmark name as shown by cgbench run")->required();
    add_format_option(*cmd, input->format, report::Model::Functions);
    cmd->add_option("--top", input->top, "How many functions to show [20]")
        ->check(CLI::Range(1, 1000));
    add_db_options(*cmd, input->db);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
