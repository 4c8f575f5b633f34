// JUnit XML rendering of a comparison: a testcase per benchmark and a <failure> per
// benchmark that fails the gate (regression, failed in HEAD, missing with
// --fail-on-missing), so GitLab, Jenkins and GitHub test reporters show the gate.

#include <fmt/format.h>

#include "compare/comparison.hpp"
#include "report/compare_summary.hpp"
#include "report/escape.hpp"
#include "report/function_report.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

namespace {

using compare::BenchmarkComparison;
using compare::Comparison;
using compare::Verdict;

std::string x(std::string_view text) {
    return markup_escape(text);
}

// The metric lines of a benchmark: "cost: 1,000 -> 1,031 (+3.10%)".
std::string metric_lines(const BenchmarkComparison& b) {
    std::string out;
    for (const auto& c : b.changes) {
        out += fmt::format("{}: {} -> {} ({}){}\n", c.metric.name(), c.base, c.head, change_cell(c),
                           c.threshold ? ", threshold " + c.threshold->describe() : "");
    }
    return out;
}

// The processes and functions that moved, as aligned tables after a blank line; empty when
// unknown.
std::string moved_lines(const BenchmarkComparison& b) {
    std::string out;
    if (!b.processes_moved.empty()) {
        out += "\n" + console_process_changes(b.name, b.processes_moved);
    }
    if (!b.moved.empty()) out += "\n" + console_function_changes(b.name, b.moved);
    return out;
}

std::string testcase(const Comparison& c, const BenchmarkComparison& b) {
    std::string out =
        fmt::format("    <testcase classname=\"cgbench.compare\" name=\"{}\">\n", x(b.name));
    if (c.fails_gate(b)) {
        out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                           compare::to_string(b.verdict), x(verdict_reason(b)),
                           x(b.verdict == Verdict::Failed ? b.head->stderr_tail
                                                          : metric_lines(b) + moved_lines(b)));
    } else if (b.verdict == Verdict::Removed) {
        out += "      <skipped message=\"only in BASE\"/>\n";
    } else {
        std::string text = std::string(compare::to_string(b.verdict));
        if (const auto reason = verdict_reason(b); !reason.empty()) text += ": " + reason;
        out += fmt::format("      <system-out>{}\n{}</system-out>\n", x(text), x(metric_lines(b)));
    }
    return out + "    </testcase>\n";
}

class JunitCompareReporter final : public CompareReporter {
  public:
    std::string render(const Comparison& c, const RenderOptions&) const override {
        std::size_t failures = 0;
        std::size_t skipped = 0;
        for (const auto& b : c.benchmarks) {
            failures += c.fails_gate(b);
            skipped += !c.fails_gate(b) && b.verdict == Verdict::Removed;
        }
        std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        out += fmt::format("<testsuites name=\"cgbench compare\" tests=\"{}\" failures=\"{}\">\n",
                           c.benchmarks.size(), failures);
        out += fmt::format(
            "  <testsuite name=\"cgbench compare {} .. {}\" tests=\"{}\" failures=\"{}\" "
            "errors=\"0\" skipped=\"{}\">\n",
            x(c.base.label), x(c.head.label), c.benchmarks.size(), failures, skipped);
        out += "    <properties>\n";
        out += fmt::format("      <property name=\"base\" value=\"{}\"/>\n",
                           x(side_description(c.base)));
        out += fmt::format("      <property name=\"head\" value=\"{}\"/>\n",
                           x(side_description(c.head)));
        out += fmt::format("      <property name=\"gate\" value=\"{}\"/>\n",
                           x(thresholds_description(c)));
        out += fmt::format("      <property name=\"summary\" value=\"{}\"/>\n",
                           x(summary_line(c, [](std::string_view s) { return std::string(s); })));
        if (c.forced) {
            out += fmt::format("      <property name=\"fingerprint_mismatch\" value=\"{}\"/>\n",
                               x(forced_warning(c)));
        }
        for (const auto& n : c.notes)
            out += fmt::format("      <property name=\"note\" value=\"{}\"/>\n", x(n));
        out += "    </properties>\n";
        for (const auto& b : c.benchmarks)
            out += testcase(c, b);
        std::string err = c.forced ? "WARNING: " + forced_warning(c) + "\n" : "";
        for (const auto& w : c.warnings)
            err += "warning: " + w + "\n";
        if (!err.empty()) out += fmt::format("    <system-err>{}</system-err>\n", x(err));
        out += "  </testsuite>\n</testsuites>\n";
        return out;
    }
};

}  // namespace

std::unique_ptr<CompareReporter> make_junit_compare_reporter() {
    return std::make_unique<JunitCompareReporter>();
}

}  // namespace cgbench::report
