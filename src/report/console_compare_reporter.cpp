// Console rendering of a comparison: both sides, the gate, an aligned table of the
// benchmarks that changed (all of them with -v), warnings and the verdict line. Colour only
// on a terminal (RenderOptions::color, which honours NO_COLOR).

#include <fmt/format.h>

#include "compare/comparison.hpp"
#include "report/compare_summary.hpp"
#include "report/function_report.hpp"
#include "report/reporter.hpp"
#include "report/run_summary.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using compare::BenchmarkComparison;
using compare::Comparison;
using compare::Verdict;
using metrics::Metric;

std::string_view verdict_colour(const Comparison& c, const BenchmarkComparison& b) {
    if (c.fails_gate(b)) return "31;1";
    if (b.verdict == Verdict::Improvement || b.verdict == Verdict::Fixed) return "32";
    if (b.verdict == Verdict::Unchanged) return "2";
    return "33";
}

std::string table(const Comparison& c, const std::vector<const BenchmarkComparison*>& rows,
                  bool color) {
    TextTable t({{"benchmark", Align::Left},
                 {"base cost", Align::Right},
                 {"head cost", Align::Right},
                 {"change", Align::Right},
                 {"Ir change", Align::Right},
                 {"verdict", Align::Left}});
    for (const auto* b : rows) {
        std::string verdict = ansi(color, verdict_colour(c, *b), verdict_label(c, *b));
        if (const auto reason = verdict_reason(*b); !reason.empty()) verdict += "  " + reason;
        // The verdict is the last column, which is never padded: colour cannot misalign it.
        t.add_row({util::printable(b->name), value_cell(b->base, Metric::cost()),
                   value_cell(b->head, Metric::cost()), change_cell(*b, Metric::cost()),
                   change_cell(*b, Metric::event(metrics::Event::Ir)), std::move(verdict)});
    }
    return t.render(0, color);
}

class ConsoleCompareReporter final : public CompareReporter {
  public:
    std::string render(const Comparison& c, const RenderOptions& o) const override {
        const auto printable = [](std::string_view s) { return util::printable(s); };
        std::string out =
            fmt::format("base  {}\nhead  {}\n", util::printable(side_description(c.base)),
                        util::printable(side_description(c.head)));
        out += fmt::format("gate  {}\n", util::printable(thresholds_description(c)));
        out += ansi(o.color, "2", provenance(c.fingerprint)) + "\n";
        if (c.forced) out += "\n" + ansi(o.color, "31;1", "WARNING: " + forced_warning(c)) + "\n";

        std::vector<const BenchmarkComparison*> rows;
        if (o.verbose) {
            for (const auto& b : c.benchmarks)
                rows.push_back(&b);
        } else {
            rows = notable(c);
        }
        out += "\n";
        if (!rows.empty()) out += table(c, rows, o.color);
        const std::size_t hidden = c.benchmarks.size() - rows.size();
        if (hidden > 0) {
            out += fmt::format("{}{} unchanged (less than 0.1%), not listed (-v lists {})\n",
                               rows.empty() ? "" : "\n",
                               hidden == 1 ? "1 benchmark" : fmt::format("{} benchmarks", hidden),
                               hidden == 1 ? "it" : "them");
        }
        for (const auto* b : rows) {
            if (!(c.fails_gate(*b) || o.verbose)) continue;
            if (!b->processes_moved.empty()) {
                out += "\n" + console_process_changes(b->name, b->processes_moved);
            }
            if (!b->moved.empty()) {
                out += "\n" + console_function_changes(b->name, b->moved);
            }
        }
        for (const auto& w : c.warnings) {
            out += fmt::format("{} {}\n", ansi(o.color, "33", "warning:"), util::printable(w));
        }
        for (const auto& n : c.notes)
            out += fmt::format("note: {}\n", util::printable(n));
        const std::string word = gate_word(c);
        out += fmt::format("\n{}  {}\n", ansi(o.color, c.passed() ? "32;1" : "31;1", word),
                           summary_line(c, printable));
        return out;
    }
};

}  // namespace

std::unique_ptr<CompareReporter> make_console_compare_reporter() {
    return std::make_unique<ConsoleCompareReporter>();
}

}  // namespace cgbench::report
