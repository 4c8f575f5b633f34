#include "runner/function_costs.hpp"

#include <algorithm>

namespace cgbench::runner {

namespace {

// Whether the cost under `weights` uses event `e`.
bool cost_needs(const metrics::EventInfo& e, const metrics::Weights& weights) {
    if (weights.instructions_only) return e.id == metrics::Event::Ir;
    if (e.source == metrics::EventSource::BranchSim) {
        return weights.mispredict > 0 && e.id == metrics::Event::Bcm;
    }
    return true;
}

// The events of `counts` the cost under `weights` needs.
metrics::EventCounts needed(const metrics::EventCounts& counts, const metrics::Weights& weights) {
    metrics::EventCounts out;
    for (const auto& e : metrics::kEvents) {
        if (counts.has(e.id) && cost_needs(e, weights)) out.set(e.id, counts.get(e.id));
    }
    return out;
}

}  // namespace

std::vector<FunctionResult> top_functions(const valgrind::Profile& profile,
                                          const metrics::Weights& weights, std::size_t limit) {
    std::vector<FunctionResult> all;
    all.reserve(profile.functions.size());
    FunctionResult other{"", std::string(kOtherFunctions), {}, 0};
    for (const auto& f : profile.functions) {
        FunctionResult r{f.file, f.name, needed(f.counts, weights), 0};
        r.cost = metrics::cost(r.events, weights);
        if (f.file.empty() && f.name == kOtherFunctions) {
            other = std::move(r);  // the parser already summed the functions it did not keep
        } else if (r.cost > 0) {
            all.push_back(std::move(r));
        }
    }
    const auto costlier = [](const FunctionResult& a, const FunctionResult& b) {
        if (a.cost != b.cost) return a.cost > b.cost;
        return a.file != b.file ? a.file < b.file : a.name < b.name;
    };
    const std::size_t kept = std::min(limit, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept), all.end(),
                      costlier);
    if (kept == all.size() && other.cost == 0) return all;
    for (std::size_t i = kept; i < all.size(); ++i) {
        other.events.add(all[i].events);
        other.cost += all[i].cost;
    }
    all.resize(kept);
    all.push_back(std::move(other));
    return all;
}

valgrind::ParseOptions top_function_options(const metrics::Weights& weights) {
    valgrind::ParseOptions options;
    options.collect_functions = true;
    options.function_limit = kTopFunctions;
    options.function_rank = [weights](const metrics::EventCounts& counts) {
        return metrics::cost(needed(counts, weights), weights);
    };
    return options;
}

}  // namespace cgbench::runner
