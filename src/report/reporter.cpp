#include "report/reporter.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "report/bisect_reporter.hpp"
#include "report/history_reporter.hpp"
#include "report/steps_reporter.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

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

std::unique_ptr<RunReporter> make_run_reporter(Format format) {
    switch (format) {
        case Format::Console:
            return make_console_run_reporter();
        case Format::Json:
            return make_json_run_reporter();
        case Format::Markdown:
            return make_markdown_run_reporter();
        case Format::Junit:
            return make_junit_run_reporter();
    }
    return make_console_run_reporter();
}

std::unique_ptr<CompareReporter> make_compare_reporter(Format format) {
    switch (format) {
        case Format::Console:
            return make_console_compare_reporter();
        case Format::Json:
            return make_json_compare_reporter();
        case Format::Markdown:
            return make_markdown_compare_reporter();
        case Format::Junit:
            return make_junit_compare_reporter();
    }
    return make_console_compare_reporter();
}

std::unique_ptr<HistoryReporter> make_history_reporter(Format format) {
    switch (format) {
        case Format::Console:
            return make_console_history_reporter();
        case Format::Json:
            return make_json_history_reporter();
        default:
            throw UsageError("history prints console or json",
                             "use --format console or --format json");
    }
}

std::unique_ptr<StepsReporter> make_steps_reporter(Format format) {
    switch (format) {
        case Format::Console:
            return make_console_steps_reporter();
        case Format::Json:
            return make_json_steps_reporter();
        default:
            throw UsageError("steps prints console or json",
                             "use --format console or --format json");
    }
}

std::unique_ptr<BisectReporter> make_bisect_reporter(Format format) {
    switch (format) {
        case Format::Console:
            return make_console_bisect_reporter();
        case Format::Json:
            return make_json_bisect_reporter();
        default:
            throw UsageError("bisect prints console or json",
                             "use --format console or --format json");
    }
}

}  // namespace cgbench::report
