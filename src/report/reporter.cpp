#include "report/reporter.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

std::unique_ptr<RunReporter> make_console_run_reporter();
std::unique_ptr<RunReporter> make_json_run_reporter();
std::unique_ptr<RunReporter> make_markdown_run_reporter();
std::unique_ptr<RunReporter> make_junit_run_reporter();

Format parse_format(std::string_view text) {
    if (text == "console") return Format::Console;
    if (text == "json") return Format::Json;
    if (text == "markdown") return Format::Markdown;
    if (text == "junit") return Format::Junit;
    throw UsageError(fmt::format("unknown format '{}'", util::printable(text)),
                     "use --format console, json, markdown or junit");
}

std::unique_ptr<RunReporter> make_run_reporter(Format format) {
    switch (format) {
        case Format::Console: return make_console_run_reporter();
        case Format::Json: return make_json_run_reporter();
        case Format::Markdown: return make_markdown_run_reporter();
        case Format::Junit: return make_junit_run_reporter();
    }
    return make_console_run_reporter();
}

}  // namespace cgbench::report
