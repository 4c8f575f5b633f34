// GitHub-flavoured Markdown rendering of a run (step summaries, PR comments).

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/reporter.hpp"
#include "report/run_summary.hpp"

namespace cgbench::report {

namespace {

std::string table_row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells)
        out += " " + c + " |";
    return out + "\n";
}

class MarkdownRunReporter final : public RunReporter {
  public:
    std::string render(const RunResult& run, const RenderOptions&) const override {
        std::size_t failed = 0;
        for (const auto& b : run.benchmarks)
            failed += b.status != BenchStatus::Ok;
        std::string out = "### cgbench results\n\n";
        out += failed == 0 ? fmt::format("{} benchmark(s) measured.\n\n", run.benchmarks.size())
                           : fmt::format("**{} of {} benchmark(s) failed.**\n\n", failed,
                                         run.benchmarks.size());
        const bool branch_sim = run.fingerprint.branch_sim;
        const auto titles = summary_titles(branch_sim);
        out += table_row(titles);
        out += "|:--|:--|";
        for (std::size_t i = 2; i < titles.size(); ++i)
            out += "--:|";
        out += "\n";
        for (const auto& b : run.benchmarks) {
            auto cells = summary_cells(b, branch_sim);
            cells[0] = markdown_name(cells[0]);
            out += table_row(cells);
        }
        // The line of <details> is HTML, not Markdown: its names are escaped as HTML.
        for (const auto& b : run.benchmarks) {
            if (b.status == BenchStatus::Ok) continue;
            out += fmt::format(
                "\n<details><summary>{}: {}</summary>\n\n{}\n</details>\n",
                markdown_html_name(b.name), markdown_html_escape(b.error),
                markdown_code_block(b.stderr_tail.empty() ? "(no stderr)" : b.stderr_tail));
        }
        out += fmt::format("\n<sub>{}; cost = {}</sub>\n",
                           markdown_escape(provenance(run.fingerprint)),
                           cost_formula(run.fingerprint.weights));
        for (const auto& b : run.benchmarks) {
            for (const auto& w : b.warnings) {
                out += fmt::format("\n> **Warning:** {}: {}\n", markdown_name(b.name),
                                   markdown_escape(w));
            }
        }
        for (const auto& w : run.warnings)
            out += "\n> **Warning:** " + markdown_escape(w) + "\n";
        if (const auto hint = no_line_info_hint(without_line_info(run)); !hint.empty())
            out += "\n> [!NOTE]\n> " + markdown_escape(hint) + "\n";
        return out;
    }
};

}  // namespace

std::unique_ptr<RunReporter> make_markdown_run_reporter() {
    return std::make_unique<MarkdownRunReporter>();
}

}  // namespace cgbench::report
