#pragma once
// What moved at a step: the events (instructions, or only the cache terms) and the functions,
// from the two results on either side of it with their stored per-function costs.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "compare/attribution.hpp"
#include "core/result.hpp"
#include "metrics/metric.hpp"

namespace cgbench::history {

// One measured quantity on both sides of a step.
struct MetricMove {
    metrics::Metric metric;  // any metric but the cost
    std::uint64_t before = 0;
    std::uint64_t after = 0;
};

struct StepExplanation {
    std::vector<MetricMove> moved;  // in kMetrics order (the events, then the hits); changed only
    bool instructions = false;      // Ir moved; false: only the cache terms did
    std::vector<compare::FunctionChange> functions;  // the functions that moved most
};

// What moved between `before` and `after` (the same benchmark), with at most `top` functions.
StepExplanation explain_step(const BenchmarkResult& before, const BenchmarkResult& after,
                             std::size_t top = 5);

// "Ir +16.28%" when instructions moved, else "cache only: ram_hits +1,234": a short phrase.
std::string summarize(const StepExplanation& e);

}  // namespace cgbench::history
