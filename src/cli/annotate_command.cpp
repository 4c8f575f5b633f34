// `cgbench annotate RUN NAME`: the costliest functions of one result, from a result file or
// the history (a run id or a git ref, as for `compare`); with --lines its costliest source
// lines per file, and with --base the lines that moved against another result.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "access/history_url.hpp"
#include "access/run_ref.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "compare/line_diff.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "report/function_report.hpp"
#include "report/line_report.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct AnnotateInput {
    std::string run;
    std::string name;
    config::DbInput db;
    std::optional<std::string> format;
    std::size_t top = 20;
    bool lines = false;
    std::string file;
    std::optional<std::string> base;
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

// Throws UsageError unless `b` kept source lines: the hint that fixes a build without debug
// info, or why an older or failed result has none.
void need_lines(const BenchmarkResult& b, const std::string& label) {
    const auto what = fmt::format("'{}' in {}", util::printable(b.name), util::printable(label));
    if (b.line_info == false) {
        throw UsageError(what +
                             " has no line information: the measured program was built "
                             "without debug info (or stripped)",
                         "compile with -g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo) and "
                         "measure again");
    }
    if (b.lines.empty()) {
        throw UsageError(what + " has no per-line costs",
                         b.status != BenchStatus::Ok
                             ? "it failed; lines exist only for measured results"
                         : b.tool != "cachegrind"
                             ? "lines are kept for Cachegrind results, not Callgrind regions"
                             : "measure it again with this cgbench");
    }
}

// The files of `b`'s kept lines, for a message.
std::string files_of(const BenchmarkResult& b) {
    std::vector<std::string> files;
    for (const auto& l : b.lines) {
        const auto name = "'" + util::printable(l.file) + "'";
        if (std::find(files.begin(), files.end(), name) == files.end()) files.push_back(name);
    }
    return util::join(files, ", ");
}

int annotate_lines(const AnnotateInput& in, const report::FunctionsReporter& reporter,
                   access::RunResolver& resolver, const access::ResolvedRun& resolved,
                   const BenchmarkResult& b) {
    need_lines(b, resolved.label);
    if (!in.base) {
        if (std::none_of(b.lines.begin(), b.lines.end(), [&](const LineResult& l) {
                return report::names_file(l.file, in.file);
            })) {
            throw UsageError(fmt::format("no kept line of '{}' is in '{}'", util::printable(b.name),
                                         util::printable(in.file)),
                             "its lines are in " + files_of(b));
        }
        print_out(reporter.render_lines(b, in.file, {}));
        return 0;
    }
    const auto base_run = resolver.resolve(*in.base);
    const BenchmarkResult& base = find_benchmark(base_run, in.name);
    need_lines(base, base_run.label);
    auto changes = compare::diff_lines(base.lines, b.lines, SIZE_MAX);
    std::erase_if(changes, [&](const compare::LineChange& c) {
        return !report::names_file(c.file, in.file);
    });
    if (changes.size() > in.top) changes.resize(in.top);
    print_out(reporter.render_line_changes(base, b, changes, {}));
    return 0;
}

int execute(const AnnotateInput& in, const Context& ctx) {
    const auto reporter =
        chosen_format(in.format, report::Model::Functions, "annotate").functions();
    if (!in.lines && (in.base || !in.file.empty())) {
        throw UsageError(in.base ? "--base compares lines" : "--file selects lines", "add --lines");
    }
    access::RunResolver resolver(
        access::history_source(config::resolve_db(in.db, ctx.env)), ctx.cwd, ctx.env, ctx.runner,
        in.lines ? history::SourceLines::Read : history::SourceLines::Skip);
    const auto resolved = resolver.resolve(in.run);
    const BenchmarkResult& b = find_benchmark(resolved, in.name);
    if (in.lines) return annotate_lines(in, *reporter, resolver, resolved, b);
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
        "Show the costliest functions of one result, or its costliest source lines:\n"
        "  cgbench annotate [OPTIONS] RUN NAME\n"
        "  cgbench annotate --lines [--file FILE] RUN NAME\n"
        "  cgbench annotate --lines --base BASE RUN NAME   (the lines that moved)\n"
        "RUN is a result file (cgbench run --out), a run id or a git ref (as for compare); "
        "NAME a benchmark in it (BENCH/REGION for a region).");
    add_global_flags(*cmd, global);
    cmd->footer(exit_code_help());
    auto input = std::make_shared<AnnotateInput>();
    cmd->add_option("RUN", input->run, "Result file, run id or git ref")->required();
    cmd->add_option("NAME", input->name, "Benchmark name as shown by cgbench run")->required();
    add_format_option(*cmd, input->format, report::Model::Functions);
    cmd->add_option("--top", input->top, "How many functions (or moved lines) to show [20]")
        ->check(CLI::Range(1, 1000));
    cmd->add_flag("--lines", input->lines,
                  "Show the result's costliest source lines per file instead of its functions");
    cmd->add_option("--file", input->file,
                    "With --lines: only the lines of this file (its path, or its last components)");
    cmd->add_option("--base", input->base,
                    "With --lines: the lines that moved since BASE (a result file, run id or git "
                    "ref), paired by function and source text");
    add_db_options(*cmd, input->db);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
