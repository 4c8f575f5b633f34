// github-action-benchmark's `customSmallerIsBetter` input
// (https://github.com/benchmark-action/github-action-benchmark): an array of
// {"name", "unit", "value", "extra"}. Each benchmark gives two series, "NAME" (unit "cost")
// and "NAME (Ir)" (unit "instructions"); `extra` carries the rest for the chart tooltip.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "metrics/events.hpp"
#include "report/exporter.hpp"
#include "report/run_summary.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

std::string extra(const RunResult& run, const BenchmarkResult& b) {
    std::string out = fmt::format("cost = {}", cost_formula(b.weights));
    if (b.derived) {
        out += fmt::format(
            "\nL1 hits {}, LL hits {}, RAM hits {}", util::with_commas(b.derived->l1_hits),
            util::with_commas(b.derived->ll_hits), util::with_commas(b.derived->ram_hits));
    }
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
            if (b.events.has(metrics::Event::Ir)) {
                doc.push_back({{"name", b.name + " (Ir)"},
                               {"unit", "instructions"},
                               {"value", b.events.get(metrics::Event::Ir)}});
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
