// OpenMetrics text format (https://openmetrics.io), as read by GitLab's
// `artifacts:reports:metrics` (metrics.txt): one gauge family per measure, one sample per
// benchmark labelled with its name, and the closing `# EOF`. Label values escape `\`, `"`
// and newlines as the format requires.

#include <fmt/format.h>

#include <string_view>

#include "metrics/events.hpp"
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

struct Family {
    const char* name;
    const char* help;
};

constexpr Family kCost{"cgbench_cost", "Weighted cost (L1, LL and RAM hits times their weights)"};
constexpr Family kIr{"cgbench_instructions", "Instructions executed (Ir)"};
constexpr Family kL1{"cgbench_l1_hits", "References served by L1"};
constexpr Family kLL{"cgbench_ll_hits", "L1 misses served by the last-level cache"};
constexpr Family kRam{"cgbench_ram_hits", "Last-level misses (RAM)"};

class OpenMetricsExporter final : public ResultExporter {
  public:
    std::string render(const RunResult& run) const override {
        std::string out;
        family(out, run, kCost, [](const BenchmarkResult& b) { return std::optional(b.cost); });
        family(out, run, kIr, [](const BenchmarkResult& b) -> std::optional<std::uint64_t> {
            if (!b.events.has(metrics::Event::Ir)) return std::nullopt;
            return b.events.get(metrics::Event::Ir);
        });
        family(out, run, kL1, [](const BenchmarkResult& b) -> std::optional<std::uint64_t> {
            if (!b.derived) return std::nullopt;
            return b.derived->l1_hits;
        });
        family(out, run, kLL, [](const BenchmarkResult& b) -> std::optional<std::uint64_t> {
            if (!b.derived) return std::nullopt;
            return b.derived->ll_hits;
        });
        family(out, run, kRam, [](const BenchmarkResult& b) -> std::optional<std::uint64_t> {
            if (!b.derived) return std::nullopt;
            return b.derived->ram_hits;
        });
        out += "# EOF\n";
        return out;
    }

  private:
    // Appends one family; a family no benchmark has a value for is left out entirely.
    template <typename Value>
    static void family(std::string& out, const RunResult& run, const Family& f, Value value) {
        std::string samples;
        for (const auto& b : run.benchmarks) {
            if (b.status != BenchStatus::Ok) continue;
            if (const auto v = value(b)) {
                samples +=
                    fmt::format("{}{{benchmark=\"{}\"}} {}\n", f.name, label_value(b.name), *v);
            }
        }
        if (samples.empty()) return;
        out += fmt::format("# TYPE {} gauge\n# HELP {} {}\n", f.name, f.name, f.help);
        out += samples;
    }
};

}  // namespace

std::unique_ptr<ResultExporter> make_openmetrics_exporter() {
    return std::make_unique<OpenMetricsExporter>();
}

}  // namespace cgbench::report
