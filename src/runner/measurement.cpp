#include "runner/measurement.hpp"

#include <algorithm>

#include "runner/function_costs.hpp"

namespace cgbench::runner {

valgrind::ToolOptions tool_options(const MeasureSettings& s, valgrind::Tool tool) {
    return {tool, s.geometry, !s.weights.instructions_only, s.branch_sim, {}};
}

BenchmarkResult start_result(const BenchmarkSpec& spec, valgrind::Tool tool,
                             const MeasureSettings& settings) {
    BenchmarkResult result;
    result.name = spec.name;
    result.command = spec.command;
    result.tool = std::string(valgrind::to_string(tool));
    result.weights = settings.weights;
    result.threshold = spec.threshold;
    result.position = spec.position;
    return result;
}

void score(const metrics::Profile& profile, const metrics::Weights& weights,
           BenchmarkResult& result) {
    result.events = profile.totals;
    result.derived = metrics::derive(result.events);
    result.cost = metrics::cost(result.events, weights);
    result.functions = top_functions(profile, weights);
    attach_lines(profile, weights, result);
    result.stderr_tail.clear();
}

const Measurement& measurement_for(const BenchmarkSpec& spec, const MeasureSettings& settings,
                                   const valgrind::Installation& inst) {
    static const WholeProgram program;
    static const CachegrindRegions cachegrind_regions;
    static const CallgrindRegions callgrind_regions;
    static const GbenchBenchmark gbench;
    switch (spec.kind) {
        case MeasureKind::Gbench:
            return gbench;
        case MeasureKind::Regions:
            if (valgrind::region_tool(settings.region_tool, inst) == valgrind::Tool::Cachegrind) {
                return cachegrind_regions;
            }
            return callgrind_regions;
        case MeasureKind::Program:
            break;
    }
    return program;
}

std::vector<valgrind::ToolOptions> tool_options_of(const std::vector<BenchmarkSpec>& specs,
                                                   const MeasureSettings& settings,
                                                   const valgrind::Installation& inst) {
    std::vector<valgrind::ToolOptions> out;
    for (const auto& spec : specs) {
        auto o = measurement_for(spec, settings, inst).options(settings);
        const auto args = valgrind::behaviour_args(o);
        const bool known = std::any_of(out.begin(), out.end(), [&](const auto& k) {
            return valgrind::behaviour_args(k) == args;
        });
        if (!known) out.push_back(std::move(o));
    }
    if (out.empty()) out.push_back(tool_options(settings, valgrind::Tool::Cachegrind));
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.tool == valgrind::Tool::Cachegrind && b.tool != valgrind::Tool::Cachegrind;
    });
    return out;
}

}  // namespace cgbench::runner
