#include "report/formats.hpp"

#include <fmt/format.h>

#include <vector>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

// Each defined in the format's own reporter file.
std::unique_ptr<RunReporter> make_console_run_reporter();
std::unique_ptr<RunReporter> make_json_run_reporter();
std::unique_ptr<RunReporter> make_markdown_run_reporter();
std::unique_ptr<RunReporter> make_junit_run_reporter();
std::unique_ptr<CompareReporter> make_console_compare_reporter();
std::unique_ptr<CompareReporter> make_json_compare_reporter();
std::unique_ptr<CompareReporter> make_markdown_compare_reporter();
std::unique_ptr<CompareReporter> make_junit_compare_reporter();
std::unique_ptr<HistoryReporter> make_console_history_reporter();
std::unique_ptr<HistoryReporter> make_json_history_reporter();
std::unique_ptr<StepsReporter> make_console_steps_reporter();
std::unique_ptr<StepsReporter> make_json_steps_reporter();
std::unique_ptr<BisectReporter> make_console_bisect_reporter();
std::unique_ptr<BisectReporter> make_json_bisect_reporter();
std::unique_ptr<FunctionsReporter> make_console_functions_reporter();
std::unique_ptr<FunctionsReporter> make_json_functions_reporter();
std::unique_ptr<FunctionsReporter> make_markdown_functions_reporter();
std::unique_ptr<CalibrationReporter> make_console_calibration_reporter();
std::unique_ptr<CalibrationReporter> make_json_calibration_reporter();
std::unique_ptr<BackfillReporter> make_console_backfill_reporter();
std::unique_ptr<BackfillReporter> make_json_backfill_reporter();

namespace {

// The table. A model a row leaves out is one the format does not render; the commands
// refuse that combination when they parse their options.
constexpr OutputFormat kFormats[] = {
    {.name = "console",
     .description = "aligned tables for a terminal, coloured on one",
     .terminal = true,
     .run = make_console_run_reporter,
     .compare = make_console_compare_reporter,
     .history = make_console_history_reporter,
     .steps = make_console_steps_reporter,
     .bisect = make_console_bisect_reporter,
     .functions = make_console_functions_reporter,
     .calibration = make_console_calibration_reporter,
     .backfill = make_console_backfill_reporter},
    {.name = "json",
     .description = "one JSON document for programs (the reference names each schema)",
     .run = make_json_run_reporter,
     .compare = make_json_compare_reporter,
     .history = make_json_history_reporter,
     .steps = make_json_steps_reporter,
     .bisect = make_json_bisect_reporter,
     .functions = make_json_functions_reporter,
     .calibration = make_json_calibration_reporter,
     .backfill = make_json_backfill_reporter},
    {.name = "markdown",
     .description = "GitHub-flavoured Markdown for pull-request comments and job summaries",
     .run = make_markdown_run_reporter,
     .compare = make_markdown_compare_reporter,
     .functions = make_markdown_functions_reporter},
    {.name = "junit",
     .description = "JUnit XML, a test case per benchmark, for the test reports of CI",
     .run = make_junit_run_reporter,
     .compare = make_junit_compare_reporter},
};

// The names of the formats that render `model`, in the table's order.
std::vector<std::string> names_of(Model model) {
    std::vector<std::string> names;
    for (const auto& f : kFormats) {
        if (supports(f, model)) names.emplace_back(f.name);
    }
    return names;
}

// "a, b or c".
std::string listed(const std::vector<std::string>& names) {
    if (names.size() < 2) return util::join(names, "");
    const std::vector<std::string> head(names.begin(), names.end() - 1);
    return util::join(head, ", ") + " or " + names.back();
}

}  // namespace

std::string_view to_string(Model model) {
    switch (model) {
        case Model::Run:
            return "run";
        case Model::Compare:
            return "compare";
        case Model::History:
            return "history";
        case Model::Steps:
            return "steps";
        case Model::Bisect:
            return "bisect";
        case Model::Functions:
            return "functions";
        case Model::Calibration:
            return "calibration";
        case Model::Backfill:
            return "backfill";
    }
    return "run";
}

std::span<const OutputFormat> output_formats() {
    return kFormats;
}

bool supports(const OutputFormat& format, Model model) {
    switch (model) {
        case Model::Run:
            return format.run != nullptr;
        case Model::Compare:
            return format.compare != nullptr;
        case Model::History:
            return format.history != nullptr;
        case Model::Steps:
            return format.steps != nullptr;
        case Model::Bisect:
            return format.bisect != nullptr;
        case Model::Functions:
            return format.functions != nullptr;
        case Model::Calibration:
            return format.calibration != nullptr;
        case Model::Backfill:
            return format.backfill != nullptr;
    }
    return false;
}

std::string format_names(Model model) {
    return listed(names_of(model));
}

const OutputFormat& find_format(std::string_view name, Model model, std::string_view command) {
    const OutputFormat* found = nullptr;
    for (const auto& f : kFormats) {
        if (f.name == name) found = &f;
    }
    if (found != nullptr && supports(*found, model)) return *found;
    if (found == nullptr) {
        throw UsageError(fmt::format("unknown format '{}'", util::printable(name)),
                         fmt::format("cgbench {} writes {}", command, format_names(model)));
    }
    throw UsageError(fmt::format("cgbench {} cannot write {}", command, name),
                     fmt::format("it writes {}", format_names(model)));
}

std::string format_option_help(Model model) {
    return fmt::format("Output: {} [{}]", format_names(model), kFormats[0].name);
}

std::string formats_help(Model model) {
    std::string out = "Formats (--format):\n";
    for (const auto& f : kFormats) {
        if (supports(f, model)) out += fmt::format("  {:<10}{}\n", f.name, f.description);
    }
    return out;
}

}  // namespace cgbench::report
