// github-action-benchmark's `customSmallerIsBetter` input
// (https://github.com/benchmark-action/github-action-benchmark): an array of
// {"name", "unit", "value", "extra"}. Each benchmark gives two series, "NAME" (unit "cost")
// and "NAME (Ir)" (unit "instructions"); `extra` carries the rest for the chart tooltip.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "metrics/metric.hpp"
#include "report/exporter.hpp"
#include "report/run_summary.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

std::string extra(const RunResult& run, const BenchmarkResult& b) {
    std::string out = fmt::format("cost = {}", cost_formula(b.weights));
    std::vector<std::string> hits;  // "L1 hits 1,234" (cache simulation), Bcm
    for (const auto& h : metrics::kHits) {
        if (const auto v = metric_value(b, metrics::Metric::hits(h.id))) {
            hits.push_back(fmt::format("{} {}", h.label, util::with_commas(*v)));
        }
    }
    if (const auto m = metric_value(b, metrics::Metric::event(metrics::Event::Bcm))) {
        hits.push_back(fmt::format("Bcm {}", util::with_commas(*m)));
    }
    if (!hits.empty()) out += "\n" + util::join(hits, ", ");
    out += "\n" + provenance(run.fingerprint);
    return out;
}

class GithubBenchmarkExporter final : public ResultExporter {
  public:
    std::string render(const RunResult& run) const override {
        ojson doc = ojson::array();
        for (const auto& b : run.benchmarks) {
            if (b.status != BenchStatus::Ok) continue;
            doc.push_back(
                {{"name", b.name}, {"unit", "cost"}, {"value", b.cost}, {"extra", extra(run, b)}});
            if (const auto ir = metric_value(b, metrics::Metric::event(metrics::Event::Ir))) {
                doc.push_back(
                    {{"name", b.name + " (Ir)"}, {"unit", "instructions"}, {"value", *ir}});
            }
        }
        return dump_json(doc) + "\n";
    }
};

}  // namespace

std::unique_ptr<ResultExporter> make_github_benchmark_exporter() {
    return std::make_unique<GithubBenchmarkExporter>();
}

}  // namespace cgbench::report
