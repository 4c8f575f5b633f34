#include "cli/report_outputs.hpp"

#include <fmt/format.h>

// GCC 12 reports a null dereference inside CLI11's string splitting as inlined here; there is
// none (as in compare_command.cpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include "cli/cli11.hpp"
#pragma GCC diagnostic pop
#include <algorithm>

#include "base/errors.hpp"
#include "report/reporter.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kExporters = "openmetrics, bencher, github-action-benchmark";

bool in_table(std::string_view name) {
    const auto formats = report::output_formats();
    return std::any_of(formats.begin(), formats.end(),
                       [name](const report::OutputFormat& f) { return f.name == name; });
}

ReportOutput find_output(std::string_view name, report::Model model, std::string_view command,
                         bool exporters) {
    ReportOutput out;
    out.format = std::string(name);
    if (exporters && !in_table(name)) {
        try {
            out.exporter = report::make_exporter(report::parse_export_format(name));
            return out;
        } catch (const UsageError&) {  // not an exporter either: say what the command writes
            throw UsageError(fmt::format("--report: unknown format '{}'", util::printable(name)),
                             fmt::format("cgbench {} writes {}, or {}", command,
                                         report::format_names(model), kExporters));
        }
    }
    out.table = &report::find_format(name, model, command);
    return out;
}

}  // namespace

void add_report_option(CLI::App& app, std::vector<std::string>& specs, report::Model model,
                       bool exporters) {
    app.add_option("--report", specs,
                   fmt::format("Also write FORMAT to FILE (FORMAT=FILE, repeatable; {}{})",
                               report::format_names(model),
                               exporters ? fmt::format(", or {}", kExporters) : ""))
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
}

std::vector<ReportOutput> open_reports(const std::vector<std::string>& specs, report::Model model,
                                       std::string_view command, bool exporters,
                                       const std::vector<std::string>& taken) {
    std::vector<ReportOutput> outputs;
    std::vector<fs::path> files;
    for (const auto& t : taken)
        files.push_back(util::absolute_lexical(t));
    for (const auto& spec : specs) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
            throw UsageError(fmt::format("--report '{}' is not FORMAT=FILE", util::printable(spec)),
                             "e.g. --report markdown=report.md --report junit=report.xml");
        }
        auto out = find_output(std::string_view(spec).substr(0, eq), model, command, exporters);
        const auto file = util::absolute_lexical(spec.substr(eq + 1));
        if (std::find(files.begin(), files.end(), file) != files.end()) {
            throw UsageError(fmt::format("--report: {} is written twice", file.string()),
                             "give every output a file of its own");
        }
        files.push_back(file);
        out.file = std::make_unique<util::OutputFile>(spec.substr(eq + 1));
        outputs.push_back(std::move(out));
    }
    return outputs;
}

void write_reports(std::vector<ReportOutput>& outputs, const compare::Comparison& comparison,
                   bool verbose) {
    const report::RenderOptions ro{false, verbose};
    for (auto& o : outputs)
        o.file->commit(o.table->compare()->render(comparison, ro));
}

void write_reports(std::vector<ReportOutput>& outputs, const RunResult& run, bool verbose) {
    const report::RenderOptions ro{false, verbose};
    for (auto& o : outputs)
        o.file->commit(o.exporter ? o.exporter->render(run) : o.table->run()->render(run, ro));
}

}  // namespace cgbench::cli
