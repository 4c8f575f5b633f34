// GitHub-flavoured Markdown rendering of the per-function views: `cgbench annotate`, and the
// tables of what moved in the compare report's collapsed sections. Every name is escaped.

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/function_report.hpp"
#include "report/line_report.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

class MarkdownFunctionsReporter final : public FunctionsReporter {
  public:
    std::string render(const BenchmarkResult& b, std::size_t top,
                       const RenderOptions&) const override {
        const auto t = top_functions_table(b, top, markdown_name);
        return fmt::format("#### {}\n\n{}\n", t.heading, markdown_table(t));
    }
    std::string render_lines(const BenchmarkResult& b, std::string_view file,
                             const RenderOptions&) const override {
        std::string out;
        for (const auto& t : lines_tables(b, file, markdown_name))
            out += fmt::format("{}#### {}\n\n{}", out.empty() ? "" : "\n", t.heading,
                               markdown_table(t));
        return out;
    }
    std::string render_line_changes(const BenchmarkResult&, const BenchmarkResult& head,
                                    const std::vector<compare::LineChange>& changes,
                                    const RenderOptions&) const override {
        if (changes.empty())
            return fmt::format("No kept line of {} moved.\n", markdown_name(head.name));
        const auto t = line_changes_table(head.name, changes, markdown_name);
        return fmt::format("#### {}\n\n{}", t.heading, markdown_table(t));
    }
};

}  // namespace

std::string markdown_table(const FunctionTable& t) {
    std::string out = "|";
    std::string rule = "|";
    for (const auto& [title, align] : t.columns) {
        out += " " + title + " |";
        rule += align == Align::Right ? "--:|" : ":--|";
    }
    out += "\n" + rule + "\n";
    for (const auto& row : t.rows)
        out += "| " + util::join(row, " | ") + " |\n";
    return out;
}

std::unique_ptr<FunctionsReporter> make_markdown_functions_reporter() {
    return std::make_unique<MarkdownFunctionsReporter>();
}

}  // namespace cgbench::report
