#include "config/gbench_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"
#include "config/benchmark_plan.hpp"
#include "util/regex.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

void expand_gbench(RunPlan& plan, const GbenchLister& list) {
    auto& specs = plan.request.benchmarks;
    const bool any = std::any_of(specs.begin(), specs.end(), [](const auto& s) {
        return s.gbench && s.gbench->benchmark.empty();
    });
    if (!any) return;
    std::optional<util::Regex> filter;
    if (plan.gbench_name_filter) filter.emplace(*plan.gbench_name_filter);  // checked already
    std::vector<runner::BenchmarkSpec> out_specs;
    std::vector<BenchmarkSettings> out_settings;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (!specs[i].gbench || !specs[i].gbench->benchmark.empty()) {
            out_specs.push_back(std::move(specs[i]));
            out_settings.push_back(std::move(plan.benchmark_settings[i]));
            continue;
        }
        for (auto& spec : runner::expand_gbench_target(specs[i], list(specs[i]))) {
            if (filter && !filter->search(spec.name)) continue;
            BenchmarkSettings b = plan.benchmark_settings[i];
            b.gbench.value = spec.gbench->benchmark;
            out_specs.push_back(std::move(spec));
            out_settings.push_back(std::move(b));
        }
    }
    if (out_specs.empty()) {
        throw UsageError(
            fmt::format("no benchmark in {} matches --filter '{}'", plan.suite.string(),
                        util::printable(plan.gbench_name_filter.value_or(""))),
            "the filter is a regular expression searched in each name, "
            "TARGET/BM_name for [[gbench]] entries");
    }
    specs = std::move(out_specs);
    plan.benchmark_settings = std::move(out_settings);
    plan.suite_size = specs.size();
    check_raw_names(plan);
}

}  // namespace cgbench::config
