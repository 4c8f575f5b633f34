// `cgbench annotate RESULT.json NAME`: the costliest functions of one stored result.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "report/function_report.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct AnnotateInput {
    std::string result_file;
    std::string name;
    std::string format = "console";
    std::size_t top = 20;
};

const BenchmarkResult& find_benchmark(const RunResult& run, const AnnotateInput& in) {
    std::vector<std::string> names;
    for (const auto& b : run.benchmarks) {
        if (b.name == in.name) return b;
        names.push_back("'" + util::printable(b.name) + "'");
    }
    throw UsageError(
        fmt::format("{} has no benchmark named '{}'", in.result_file, util::printable(in.name)),
        fmt::format("it has {}", util::join(names, ", ")));
}

int execute(const AnnotateInput& in) {
    const auto format = report::parse_format(in.format);
    if (format == report::Format::Junit) {
        throw UsageError("annotate cannot write junit", "use --format console, markdown or json");
    }
    const RunResult run = load_result_file(in.result_file);
    const BenchmarkResult& b = find_benchmark(run, in);
    if (b.functions.empty()) {
        throw UsageError(fmt::format("'{}' in {} has no per-function costs",
                                     util::printable(b.name), in.result_file),
                         b.status == BenchStatus::Ok
                             ? "measure it again with this cgbench"
                             : "it failed; per-function costs exist only for measured results");
    }
    fmt::print("{}", report::render_functions(b, format, in.top));
    return 0;
}

}  // namespace

Subcommand register_annotate(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "annotate",
        "Show the costliest functions of one result:\n"
        "  cgbench annotate [OPTIONS] RESULT.json NAME\n"
        "RESULT.json is a file written by `cgbench run --out`; NAME a benchmark in "
        "it (BENCH/REGION for a region).");
    add_global_flags(*cmd, global);
    cmd->footer(exit_code_help());
    auto input = std::make_shared<AnnotateInput>();
    cmd->add_option("RESULT", input->result_file, "Result file (cgbench run --out)")->required();
    cmd->add_option("NAME", input->name, "Benchmark name as shown by cgbench run")->required();
    cmd->add_option("--format", input->format, "Output: console, markdown, json [console]");
    cmd->add_option("--top", input->top, "How many functions to show [20]")
        ->check(CLI::Range(1, 1000));
    return {cmd, [input] { return execute(*input); }};
}

}  // namespace cgbench::cli
