#include "history/explain.hpp"

#include <fmt/format.h>

#include <cmath>

#include "util/strings.hpp"

namespace cgbench::history {

namespace {

using metrics::Metric;

std::string signed_count(const MetricMove& m) {
    const bool up = m.after >= m.before;
    return std::string(up ? "+" : "-") + util::with_commas(up ? m.after - m.before
                                                              : m.before - m.after);
}

}  // namespace

StepExplanation explain_step(const BenchmarkResult& before, const BenchmarkResult& after,
                             std::size_t top) {
    StepExplanation e;
    // Every metric but the cost (which moved, or there would be no step).
    for (const auto& m : metrics::kMetrics) {
        if (m.key == Metric::cost()) continue;
        const auto b = m.key.value(before.events, before.derived, before.cost);
        const auto a = m.key.value(after.events, after.derived, after.cost);
        if (b && a && *b != *a) e.moved.push_back({m.key, *b, *a});
    }
    e.instructions =
        !e.moved.empty() && e.moved.front().metric == Metric::event(metrics::Event::Ir);
    e.functions = compare::attribute_change(before, after, top);
    return e;
}

std::string summarize(const StepExplanation& e) {
    if (e.moved.empty()) return "no event recorded moved";
    const auto& first = e.moved.front();
    if (e.instructions) {
        const double rel = first.before == 0 ? 0
                                             : (static_cast<double>(first.after) -
                                                static_cast<double>(first.before)) /
                                                   static_cast<double>(first.before);
        return fmt::format("Ir {}", util::percent(rel));
    }
    // The cache term that moved the cost most: RAM hits weigh most, then LL.
    for (const auto term : {metrics::Hits::Ram, metrics::Hits::LL, metrics::Hits::L1}) {
        for (const auto& m : e.moved) {
            if (m.metric == Metric::hits(term)) {
                return fmt::format("cache only: {} {}", m.metric.name(), signed_count(m));
            }
        }
    }
    return fmt::format("cache only: {} {}", first.metric.name(), signed_count(first));
}

}  // namespace cgbench::history
