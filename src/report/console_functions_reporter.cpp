// Console rendering of the per-function views: `cgbench annotate`, and the tables of what moved
// that the console reports (and JUnit's failures) show under a benchmark.

#include <fmt/format.h>

#include "report/function_report.hpp"
#include "report/line_report.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// The heading, a blank line, and the table indented by two spaces.
std::string console_table(const FunctionTable& t) {
    TextTable table(t.columns);
    for (const auto& row : t.rows)
        table.add_row(row);
    return fmt::format("{}\n\n{}", t.heading, table.render(2)) + "\n";
}

class ConsoleFunctionsReporter final : public FunctionsReporter {
  public:
    std::string render(const BenchmarkResult& b, std::size_t top,
                       const RenderOptions&) const override {
        return console_table(top_functions_table(b, top, util::printable));
    }
    std::string render_lines(const BenchmarkResult& b, std::string_view file,
                             const RenderOptions&) const override {
        std::string out;
        for (const auto& t : lines_tables(b, file, util::printable))
            out += (out.empty() ? "" : "\n") + console_table(t);
        return out;
    }
    std::string render_line_changes(const BenchmarkResult&, const BenchmarkResult& head,
                                    const std::vector<compare::LineChange>& changes,
                                    const RenderOptions&) const override {
        if (changes.empty())
            return fmt::format("No kept line of {} moved.\n", util::printable(head.name));
        return console_table(line_changes_table(head.name, changes, util::printable));
    }
};

}  // namespace

std::string console_function_changes(std::string_view benchmark,
                                     const std::vector<compare::FunctionChange>& changes) {
    return console_table(function_changes_table(benchmark, changes, util::printable));
}

std::string console_process_changes(std::string_view benchmark,
                                    const std::vector<compare::ProcessChange>& changes) {
    return console_table(process_changes_table(benchmark, changes, util::printable));
}

std::unique_ptr<FunctionsReporter> make_console_functions_reporter() {
    return std::make_unique<ConsoleFunctionsReporter>();
}

}  // namespace cgbench::report
