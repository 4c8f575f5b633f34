#pragma once
// The output formats `--format` chooses, in one table (formats.cpp): per format its name, what
// it writes, and its reporter for each model a command renders, or none. A new format is its
// reporter files and a row in that table: the commands' option parsing and --help, the check
// of the reference's format table and the golden-file tests all read the table.

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace cgbench::report {

class RunReporter;
class CompareReporter;
class HistoryReporter;
class StepsReporter;
class BisectReporter;
class BackfillReporter;
class FunctionsReporter;
class CalibrationReporter;

// What a command renders: Run for `run` and `merge`, Functions for `annotate`, Calibration for
// `calibrate`, the others for the command of their name.
enum class Model { Run, Compare, History, Steps, Bisect, Functions, Calibration, Backfill };

// Every model, in the order of the enum (tests and the reference go through them all).
inline constexpr std::array kModels = {Model::Run,         Model::Compare, Model::History,
                                       Model::Steps,       Model::Bisect,  Model::Functions,
                                       Model::Calibration, Model::Backfill};

// "run", "compare", "history", "steps", "bisect", "functions", "calibration", "backfill".
std::string_view to_string(Model model);

// A reporter's constructor; null where a format does not render that model.
template <class Reporter>
using Factory = std::unique_ptr<Reporter> (*)();

// One format: a row of the table.
struct OutputFormat {
    std::string_view name;         // what --format takes
    std::string_view description;  // one line, for --help and the reference's table
    // For a terminal: coloured on one, and informational, so -q silences it in run, merge,
    // compare and calibrate (another format is the output asked for, printed even with -q).
    bool terminal = false;
    Factory<RunReporter> run = nullptr;
    Factory<CompareReporter> compare = nullptr;
    Factory<HistoryReporter> history = nullptr;
    Factory<StepsReporter> steps = nullptr;
    Factory<BisectReporter> bisect = nullptr;
    Factory<FunctionsReporter> functions = nullptr;
    Factory<CalibrationReporter> calibration = nullptr;
    Factory<BackfillReporter> backfill = nullptr;
};

// Every format, in the order --help and the reference list them; the first is the default
// of every command.
std::span<const OutputFormat> output_formats();

// Whether `format` has a reporter for `model`.
bool supports(const OutputFormat& format, Model model);

// The formats that render `model`, for messages: "console, json, markdown or junit".
std::string format_names(Model model);

// The format `name` as `command` (which renders `model`) takes it. UsageError (exit 2), whose
// hint names the formats `command` writes, when no format has that name or it cannot render
// `model`: a command refuses it before doing anything.
const OutputFormat& find_format(std::string_view name, Model model, std::string_view command);

// The help of a command's --format option: "Output: console, json or markdown [console]".
std::string format_option_help(Model model);

// The --help paragraph that says what each format `model` renders writes, a line per format.
std::string formats_help(Model model);

}  // namespace cgbench::report
