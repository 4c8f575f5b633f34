// Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format): an object
// of benchmark names, each an object of measures with a "value". Measures: cost,
// instructions, with cache simulation l1-hits, ll-hits, ram-hits, and with branch simulation
// mispredicts (Bcm, the mispredicted conditional branches the cost weighs). Bencher creates a
// measure the first time it sees its slug.

#include <nlohmann/json.hpp>
#include <utility>

#include "core/result_json.hpp"
#include "metrics/metric.hpp"
#include "report/exporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

// The measures, each a metric under the slug Bencher knows it by.
constexpr std::pair<metrics::Metric, const char*> kMeasures[] = {
    {metrics::Metric::cost(), "cost"},
    {metrics::Metric::event(metrics::Event::Ir), "instructions"},
    {metrics::Metric::hits(metrics::Hits::L1), "l1-hits"},
    {metrics::Metric::hits(metrics::Hits::LL), "ll-hits"},
    {metrics::Metric::hits(metrics::Hits::Ram), "ram-hits"},
    {metrics::Metric::event(metrics::Event::Bcm), "mispredicts"},
};

class BencherExporter final : public ResultExporter {
  public:
    std::string render(const RunResult& run) const override {
        ojson doc = ojson::object();
        for (const auto& b : run.benchmarks) {
            if (b.status != BenchStatus::Ok) continue;
            ojson m;
            for (const auto& [metric, slug] : kMeasures) {
                if (const auto v = metric_value(b, metric)) m[slug] = ojson{{"value", *v}};
            }
            doc[b.name] = std::move(m);
        }
        return dump_json(doc) + "\n";
    }
};

}  // namespace

std::unique_ptr<ResultExporter> make_bencher_exporter() {
    return std::make_unique<BencherExporter>();
}

}  // namespace cgbench::report
