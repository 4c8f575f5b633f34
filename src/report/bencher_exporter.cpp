// Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format): an object
// of benchmark names, each an object of measures with a "value". Measures: cost,
// instructions, and with cache simulation l1-hits, ll-hits, ram-hits. Bencher creates a
// measure the first time it sees its slug.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "metrics/events.hpp"
#include "report/exporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson measure(std::uint64_t value) {
    return ojson{{"value", value}};
}

class BencherExporter final : public ResultExporter {
  public:
    std::string render(const RunResult& run) const override {
        ojson doc = ojson::object();
        for (const auto& b : run.benchmarks) {
            if (b.status != BenchStatus::Ok) continue;
            ojson m;
            m["cost"] = measure(b.cost);
            if (b.events.has(metrics::Event::Ir)) {
                m["instructions"] = measure(b.events.get(metrics::Event::Ir));
            }
            if (b.derived) {
                m["l1-hits"] = measure(b.derived->l1_hits);
                m["ll-hits"] = measure(b.derived->ll_hits);
                m["ram-hits"] = measure(b.derived->ram_hits);
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
