// GitHub-flavoured Markdown rendering of a comparison, sized for a pull-request comment and
// $GITHUB_STEP_SUMMARY: a summary line, a table of the benchmarks that changed, and all
// benchmarks plus the fingerprint collapsed in <details>. Every name is escaped.

#include <fmt/format.h>

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

// GitHub rejects comments over 65,536 characters; these caps keep a report well below.
constexpr std::size_t kMaxChangedRows = 50;
constexpr std::size_t kMaxDetailRows = 300;
constexpr std::size_t kMaxMovedSections = 10;

std::string row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells)
        out += " " + c + " |";
    return out + "\n";
}

std::string md(std::string_view text) {
    return markdown_escape(text);
}

std::string changed_table(const Comparison& c) {
    const auto rows = notable(c);
    if (rows.empty()) return "No benchmark changed by 0.1% or more.\n";
    std::string out = row({"benchmark", "base cost", "head cost", "change", "verdict"});
    out += "|:--|--:|--:|--:|:--|\n";
    for (std::size_t i = 0; i < rows.size() && i < kMaxChangedRows; ++i) {
        const auto& b = *rows[i];
        std::string verdict = verdict_label(c, b);
        if (c.fails_gate(b)) verdict = "**" + verdict + "**";
        if (const auto reason = verdict_reason(b); !reason.empty()) verdict += ": " + md(reason);
        out += row({md(b.name), value_cell(b.base, Metric::cost()),
                    value_cell(b.head, Metric::cost()), change_cell(b, Metric::cost()), verdict});
    }
    if (rows.size() > kMaxChangedRows) {
        out +=
            fmt::format("\n…and {} more (see the JSON report).\n", rows.size() - kMaxChangedRows);
    }
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
        if (!b.processes_moved.empty()) {
            out += collapsed(process_changes_table(b.name, {}, markdown_html_escape).heading,
                             process_changes_table(b.name, b.processes_moved, markdown_escape));
        }
        if (!b.moved.empty()) {
            out += collapsed(function_changes_table(b.name, {}, markdown_html_escape).heading,
                             function_changes_table(b.name, b.moved, markdown_escape));
        }
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
    for (std::size_t i = 0; i < c.benchmarks.size() && i < kMaxDetailRows; ++i) {
        const auto& b = c.benchmarks[i];
        std::vector<std::string> cells = {md(b.name)};
        for (const auto m : kDetailMetrics) {
            cells.insert(cells.end(),
                         {value_cell(b.base, m), value_cell(b.head, m), change_cell(b, m)});
        }
        cells.push_back(verdict_label(c, b));
        out += row(cells);
    }
    if (c.benchmarks.size() > kMaxDetailRows) {
        out += fmt::format("\n…and {} more (see the JSON report).\n",
                           c.benchmarks.size() - kMaxDetailRows);
    }
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
        std::string out = fmt::format("### cgbench {}: {}\n\n", c.passed() ? "✅" : "❌",
                                      summary_line(c, [](std::string_view s) { return md(s); }));
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
