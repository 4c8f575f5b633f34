#pragma once
// Several outputs from one invocation: `--report FORMAT=FILE`, repeatable, on `run`,
// `compare` and `pr`. The model (a run, a comparison) is computed once and each format of the
// table (report/formats.hpp) renders it into its file; `run` also takes the exporters
// (openmetrics, bencher, github-action-benchmark). Every file is opened before anything is
// measured or compared, and written atomically.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "report/exporter.hpp"
#include "report/formats.hpp"
#include "util/fs.hpp"

namespace CLI {
class App;
}

namespace cgbench::compare {
struct Comparison;
}

namespace cgbench::cli {

struct ReportOutput {
    std::string format;                                // as named
    const report::OutputFormat* table = nullptr;       // a row of the format table, or
    std::unique_ptr<report::ResultExporter> exporter;  // an exporter (runs only)
    std::unique_ptr<util::OutputFile> file;
};

// Adds --report FORMAT=FILE (repeatable) to `app`; its help names the formats that render
// `model` (and the exporters, with `exporters`).
void add_report_option(CLI::App& app, std::vector<std::string>& specs, report::Model model,
                       bool exporters);

// Each FORMAT=FILE of `specs`, its format found and its file opened. UsageError (exit 2) for a
// spec without '=', a format `command` cannot write, or a file named twice (also among
// `taken`, the command's other outputs).
std::vector<ReportOutput> open_reports(const std::vector<std::string>& specs, report::Model model,
                                       std::string_view command, bool exporters,
                                       const std::vector<std::string>& taken = {});

// Renders `comparison` once per output (no colour) and writes each file.
void write_reports(std::vector<ReportOutput>& outputs, const compare::Comparison& comparison,
                   bool verbose);

// Renders `run` once per output (no colour) and writes each file.
void write_reports(std::vector<ReportOutput>& outputs, const RunResult& run, bool verbose);

}  // namespace cgbench::cli
