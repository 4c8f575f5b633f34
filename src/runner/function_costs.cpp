#include "runner/function_costs.hpp"

#include <algorithm>

namespace cgbench::runner {

namespace {

// Whether the cost under `weights` uses event `e`.
bool cost_needs(const metrics::EventInfo& e, const metrics::Weights& weights) {
    if (weights.instructions_only) return e.id == metrics::Event::Ir;
    return e.source != metrics::EventSource::BranchSim;
}

// The counts of one function as events, keeping those the cost needs.
metrics::EventCounts events_of(const valgrind::Profile& profile,
                               const std::vector<std::uint64_t>& counts,
                               const metrics::Weights& weights) {
    metrics::EventCounts out;
    for (std::size_t i = 0; i < profile.columns.size() && i < counts.size(); ++i) {
        const auto& column = profile.columns[i];
        if (column && cost_needs(metrics::info(*column), weights)) out.set(*column, counts[i]);
    }
    return out;
}

}  // namespace

std::vector<FunctionResult> top_functions(const valgrind::Profile& profile,
                                          const metrics::Weights& weights, std::size_t limit) {
    std::vector<FunctionResult> all;
    all.reserve(profile.functions.size());
    for (const auto& f : profile.functions) {
        FunctionResult r{f.file, f.name, events_of(profile, f.counts, weights), 0};
        r.cost = metrics::cost(r.events, weights);
        if (r.cost > 0) all.push_back(std::move(r));
    }
    const auto costlier = [](const FunctionResult& a, const FunctionResult& b) {
        if (a.cost != b.cost) return a.cost > b.cost;
        return a.file != b.file ? a.file < b.file : a.name < b.name;
    };
    const std::size_t kept = std::min(limit, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept), all.end(),
                      costlier);
    if (kept == all.size()) return all;
    FunctionResult other{"", std::string(kOtherFunctions), {}, 0};
    for (std::size_t i = kept; i < all.size(); ++i) {
        other.events.add(all[i].events);
        other.cost += all[i].cost;
    }
    all.resize(kept);
    all.push_back(std::move(other));
    return all;
}

}  // namespace cgbench::runner
