// GitHub-flavoured Markdown rendering of a comparison, sized for a pull-request comment and
// $GITHUB_STEP_SUMMARY: a summary line, a table of the benchmarks that changed, and all
// benchmarks plus the fingerprint collapsed in <details>. Every name is escaped.

#include <fmt/format.h>

#include <functional>

#include "compare/comparison.hpp"
#include "report/compare_summary.hpp"
#include "report/escape.hpp"
#include "report/function_report.hpp"
#include "report/reporter.hpp"
#include "report/run_summary.hpp"

namespace cgbench::report {

namespace {

using compare::BenchmarkComparison;
using compare::Comparison;
using metrics::Metric;

// GitHub rejects comments over 65,536 characters. The report is capped by rows and by bytes
// per part (names are cut at kMaxMarkdownName), so it stays under kMaxReportBytes whatever
// the names and counts (docs/reference/reports.md).
constexpr std::size_t kMaxChangedRows = 50;
constexpr std::size_t kMaxDetailRows = 300;
constexpr std::size_t kMaxMovedSections = 10;
constexpr std::size_t kChangedBytes = 20000;
constexpr std::size_t kMovedBytes = 14000;
constexpr std::size_t kDetailBytes = 20000;
constexpr std::size_t kMaxLineBytes = 1000;  // a note, warning or description line

std::string row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells)
        out += " " + c + " |";
    return out + "\n";
}

// Text of a line that is no name (a warning, a description): escaped, cut at kMaxLineBytes.
std::string md(std::string_view text) {
    return markdown_cell(text, kMaxLineBytes);
}

// Appends `rows` (rendered on demand) to `out` while there are fewer than `max_rows` and
// `out` stays within `max_bytes`; then says how many are left out.
void append_rows(std::string& out, std::size_t count, std::size_t max_rows, std::size_t max_bytes,
                 const std::function<std::string(std::size_t)>& render) {
    std::size_t shown = 0;
    for (; shown < count && shown < max_rows; ++shown) {
        auto line = render(shown);
        if (out.size() + line.size() > max_bytes) break;
        out += line;
    }
    if (shown < count) {
        out += fmt::format("\n…and {} more (see the JSON report).\n", count - shown);
    }
}

std::string changed_table(const Comparison& c) {
    const auto rows = notable(c);
    if (rows.empty()) return "No benchmark changed by 0.1% or more.\n";
    std::string out = row({"benchmark", "base cost", "head cost", "change", "verdict"});
    out += "|:--|--:|--:|--:|:--|\n";
    append_rows(out, rows.size(), kMaxChangedRows, kChangedBytes, [&](std::size_t i) {
        const auto& b = *rows[i];
        std::string verdict = verdict_label(c, b);
        if (c.fails_gate(b)) verdict = "**" + verdict + "**";
        if (const auto reason = verdict_reason(b); !reason.empty()) verdict += ": " + md(reason);
        return row({markdown_name(b.name), value_cell(b.base, Metric::cost()),
                    value_cell(b.head, Metric::cost()), change_cell(b, Metric::cost()), verdict});
    });
    return out;
}

// A collapsed section holding `t` under `summary`. The line of <details> is HTML, not
// Markdown, so the summary's names are escaped as HTML (a backslash would show).
std::string collapsed(const std::string& summary, const FunctionTable& t) {
    return fmt::format("\n<details><summary>{}</summary>\n\n{}\n\n</details>\n", summary,
                       markdown_table(t));
}

// Which processes and functions moved, for the first regressions: collapsed, so the comment
// stays short.
std::string moved_functions(const Comparison& c) {
    std::string out;
    std::size_t shown = 0;
    for (const auto& b : c.benchmarks) {
        if ((b.moved.empty() && b.processes_moved.empty()) || !c.fails_gate(b) ||
            shown++ == kMaxMovedSections) {
            continue;
        }
        // The heading of a table without rows is the summary.
        std::string section;
        if (!b.processes_moved.empty()) {
            section += collapsed(process_changes_table(b.name, {}, markdown_html_name).heading,
                                 process_changes_table(b.name, b.processes_moved, markdown_name));
        }
        if (!b.moved.empty()) {
            section += collapsed(function_changes_table(b.name, {}, markdown_html_name).heading,
                                 function_changes_table(b.name, b.moved, markdown_name));
        }
        if (out.size() + section.size() > kMovedBytes) break;  // each section is whole
        out += section;
    }
    return out;
}

// The metrics of the table of all benchmarks: base, head and change of each.
constexpr Metric kDetailMetrics[] = {Metric::cost(), Metric::event(metrics::Event::Ir)};

// Every benchmark (up to kMaxDetailRows) with both sides of each of kDetailMetrics.
std::string all_benchmarks_table(const Comparison& c) {
    std::vector<std::string> titles = {"benchmark"};
    std::string align = "|:--|";
    for (const auto m : kDetailMetrics) {
        const std::string label(m.label());
        titles.insert(titles.end(), {"base " + label, "head " + label, label});
        align += "--:|--:|--:|";
    }
    titles.push_back("verdict");
    std::string out = row(titles) + align + ":--|\n";
    append_rows(out, c.benchmarks.size(), kMaxDetailRows, kDetailBytes, [&](std::size_t i) {
        const auto& b = c.benchmarks[i];
        std::vector<std::string> cells = {markdown_name(b.name)};
        for (const auto m : kDetailMetrics) {
            cells.insert(cells.end(),
                         {value_cell(b.base, m), value_cell(b.head, m), change_cell(b, m)});
        }
        cells.push_back(verdict_label(c, b));
        return row(cells);
    });
    return out;
}

std::string details(const Comparison& c) {
    std::string out = fmt::format(
        "\n<details><summary>All {} benchmark{}, thresholds and "
        "fingerprint</summary>\n\n",
        c.benchmarks.size(), c.benchmarks.size() == 1 ? "" : "s");
    out += all_benchmarks_table(c);
    out += fmt::format(
        "\n- **Base:** {}\n- **Head:** {}\n- **Gate:** {}\n- **Measured with:** "
        "{}; cost = {}\n",
        md(side_description(c.base)), md(side_description(c.head)), md(thresholds_description(c)),
        md(provenance(c.fingerprint)), cost_formula(c.fingerprint.weights));
    return out + "\n</details>\n";
}

class MarkdownCompareReporter final : public CompareReporter {
  public:
    std::string render(const Comparison& c, const RenderOptions&) const override {
        std::string out =
            fmt::format("### cgbench {}: {}\n\n", c.passed() ? "✅" : "❌",
                        summary_line(c, [](std::string_view s) { return markdown_name(s); }));
        if (c.forced) out += "> [!WARNING]\n> " + md(forced_warning(c)) + "\n\n";
        for (const auto& n : c.notes)
            out += "> [!NOTE]\n> " + md(n) + "\n\n";
        out += changed_table(c);
        out += moved_functions(c);
        for (const auto& w : c.warnings)
            out += "\n> **Warning:** " + md(w) + "\n";
        return out + details(c);
    }
};

}  // namespace

std::unique_ptr<CompareReporter> make_markdown_compare_reporter() {
    return std::make_unique<MarkdownCompareReporter>();
}

}  // namespace cgbench::report
