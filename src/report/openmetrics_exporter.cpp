// OpenMetrics text format (https://openmetrics.io), as read by GitLab's
// `artifacts:reports:metrics` (metrics.txt): one gauge family per measure, one sample per
// benchmark labelled with its name, and the closing `# EOF`. Label values escape `\`, `"`
// and newlines as the format requires.

#include <fmt/format.h>

#include <string_view>

#include "metrics/metric.hpp"
#include "report/exporter.hpp"

namespace cgbench::report {

namespace {

std::string label_value(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (const char c : name) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

// One gauge family: the metric it reports, under the name and help text dashboards know.
struct Family {
    metrics::Metric metric;
    const char* name;
    const char* help;
};

constexpr Family kFamilies[] = {
    {metrics::Metric::cost(), "cgbench_cost",
     "Weighted cost (L1, LL and RAM hits, and mispredictions, times their weights)"},
    {metrics::Metric::event(metrics::Event::Ir), "cgbench_instructions",
     "Instructions executed (Ir)"},
    {metrics::Metric::hits(metrics::Hits::L1), "cgbench_l1_hits", "References served by L1"},
    {metrics::Metric::hits(metrics::Hits::LL), "cgbench_ll_hits",
     "L1 misses served by the last-level cache"},
    {metrics::Metric::hits(metrics::Hits::Ram), "cgbench_ram_hits", "Last-level misses (RAM)"},
    {metrics::Metric::event(metrics::Event::Bcm), "cgbench_mispredicts",
     "Mispredicted conditional branches (Bcm, with --branch-sim)"},
};

// Appends one family; a family no benchmark has a value for is left out entirely.
void family(std::string& out, const RunResult& run, const Family& f) {
    std::string samples;
    for (const auto& b : run.benchmarks) {
        if (const auto v = metric_value(b, f.metric)) {
            samples += fmt::format("{}{{benchmark=\"{}\"}} {}\n", f.name, label_value(b.name), *v);
        }
    }
    if (samples.empty()) return;
    out += fmt::format("# TYPE {} gauge\n# HELP {} {}\n", f.name, f.name, f.help);
    out += samples;
}

class OpenMetricsExporter final : public ResultExporter {
  public:
    std::string render(const RunResult& run) const override {
        std::string out;
        for (const auto& f : kFamilies)
            family(out, run, f);
        out += "# EOF\n";
        return out;
    }
};

}  // namespace

std::unique_ptr<ResultExporter> make_openmetrics_exporter() {
    return std::make_unique<OpenMetricsExporter>();
}

}  // namespace cgbench::report
