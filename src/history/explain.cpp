#include "history/explain.hpp"

#include <fmt/format.h>

#include <cmath>

#include "metrics/events.hpp"
#include "util/strings.hpp"

namespace cgbench::history {

namespace {

void add_if_moved(StepExplanation& e, std::string metric, std::uint64_t before,
                  std::uint64_t after) {
    if (before != after) e.moved.push_back({std::move(metric), before, after});
}

std::string signed_count(const MetricMove& m) {
    const bool up = m.after >= m.before;
    return std::string(up ? "+" : "-") + util::with_commas(up ? m.after - m.before
                                                              : m.before - m.after);
}

}  // namespace

StepExplanation explain_step(const BenchmarkResult& before, const BenchmarkResult& after,
                             std::size_t top) {
    StepExplanation e;
    for (const auto& info : metrics::kEvents) {
        if (before.events.has(info.id) && after.events.has(info.id)) {
            add_if_moved(e, std::string(info.name), before.events.get(info.id),
                         after.events.get(info.id));
        }
    }
    if (before.derived && after.derived) {
        add_if_moved(e, "l1_hits", before.derived->l1_hits, after.derived->l1_hits);
        add_if_moved(e, "ll_hits", before.derived->ll_hits, after.derived->ll_hits);
        add_if_moved(e, "ram_hits", before.derived->ram_hits, after.derived->ram_hits);
    }
    e.instructions = !e.moved.empty() && e.moved.front().metric == "Ir";
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
    for (const char* term : {"ram_hits", "ll_hits", "l1_hits"}) {
        for (const auto& m : e.moved) {
            if (m.metric == term) return fmt::format("cache only: {} {}", term, signed_count(m));
        }
    }
    return fmt::format("cache only: {} {}", first.metric, signed_count(first));
}

}  // namespace cgbench::history
