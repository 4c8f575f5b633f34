#include "runner/call_stacks.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "exec/staging.hpp"

namespace cgbench::runner {

namespace {

// The call graph, a node per function (file and name, as Callgrind tells them apart: two
// "(below main)" of glibc call each other), costs weighted.
struct Graph {
    std::vector<std::string_view> names;
    std::vector<std::uint64_t> self;
    std::vector<std::uint64_t> inclusive;  // self + the calls out (recursive ones left out)
    std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> calls;  // costliest first
    std::vector<bool> called;

    std::uint32_t id(std::string_view file, std::string_view name,
                     std::unordered_map<std::string, std::uint32_t>& ix) {
        std::string key(file);
        key += '\0';
        key += name;
        const auto [it, added] =
            ix.try_emplace(std::move(key), static_cast<std::uint32_t>(names.size()));
        if (added) {
            names.push_back(name);
            self.push_back(0);
            calls.emplace_back();
            called.push_back(false);
        }
        return it->second;
    }
};

Graph graph_of(const metrics::Profile& profile, const metrics::Weights& weights) {
    Graph g;
    std::unordered_map<std::string, std::uint32_t> index;
    for (const auto& f : profile.functions)
        g.self[g.id(f.file, f.name, index)] += metrics::cost(f.counts, weights);
    for (const auto& c : profile.calls) {
        const auto from = g.id(c.caller_file, c.caller, index);
        const auto to = g.id(c.callee_file, c.callee, index);
        if (from == to) continue;  // direct recursion: inside the caller's own cost
        g.calls[from].emplace_back(to, metrics::cost(c.counts, weights));
        g.called[to] = true;
    }
    g.inclusive = g.self;
    for (std::size_t f = 0; f < g.calls.size(); ++f) {
        auto& out = g.calls[f];
        for (const auto& [to, cost] : out)
            g.inclusive[f] += cost;
        std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : g.names[a.first] < g.names[b.first];
        });
    }
    return g;
}

// Builds the paths top down, each function's costs scaled by the share of them its path has.
class Expander {
  public:
    Expander(const Graph& g, CallTree& tree, std::uint64_t min_cost)
        : g_(g), tree_(tree), min_cost_(min_cost), on_path_(g.names.size(), false) {}

    // Adds `f` reached by path `node` carrying `cost` of f's inclusive cost.
    void expand(std::uint32_t node, std::uint32_t f, std::uint64_t cost, std::size_t depth) {
        if (g_.inclusive[f] == 0) {  // called, but no cost of its own recorded: keep the call's
            tree_.add_self(node, cost);
            return;
        }
        const double scale = g_.inclusive[f] == 0
                                 ? 0.0
                                 : static_cast<double>(cost) / static_cast<double>(g_.inclusive[f]);
        on_path_[f] = true;
        tree_.add_self(node, share(g_.self[f], scale));
        std::uint64_t rest = 0;  // calls too small, deep or many to keep apart
        for (const auto& [callee, call_cost] : g_.calls[f]) {
            const std::uint64_t part = share(call_cost, scale);
            if (part == 0 || on_path_[callee]) continue;  // recursion: in the ancestor's cost
            if (part < min_cost_ || depth + 1 >= kMaxCallDepth || tree_.size() >= kMaxCallNodes) {
                rest += part;
                continue;
            }
            expand(tree_.child(node, g_.names[callee]), callee, part, depth + 1);
        }
        if (rest > 0) tree_.add_self(tree_.child(node, kOtherCalls), rest);
        on_path_[f] = false;
    }

  private:
    static std::uint64_t share(std::uint64_t cost, double scale) {
        return static_cast<std::uint64_t>(std::llround(static_cast<double>(cost) * scale));
    }

    const Graph& g_;
    CallTree& tree_;
    std::uint64_t min_cost_;
    std::vector<bool> on_path_;
};

}  // namespace

CallTree call_tree_of(const metrics::Profile& profile, const metrics::Weights& weights,
                      std::string root_name) {
    const Graph g = graph_of(profile, weights);
    std::vector<std::uint32_t> roots;
    for (std::uint32_t f = 0; f < g.names.size(); ++f) {
        if (!g.called[f] && g.inclusive[f] > 0) roots.push_back(f);
    }
    if (roots.empty() && !g.names.empty()) {  // every function in a cycle: the costliest
        roots.push_back(static_cast<std::uint32_t>(
            std::max_element(g.inclusive.begin(), g.inclusive.end()) - g.inclusive.begin()));
    }
    std::uint64_t whole = 0;
    for (const auto r : roots)
        whole += g.inclusive[r];
    const auto min_cost = static_cast<std::uint64_t>(static_cast<double>(whole) * kMinCallShare);
    CallTree tree(std::move(root_name));
    Expander expander(g, tree, std::max<std::uint64_t>(min_cost, 1));
    std::uint64_t rest = 0;
    for (const auto r : roots) {
        if (g.inclusive[r] < min_cost) {
            rest += g.inclusive[r];
            continue;
        }
        expander.expand(tree.child(CallTree::kRoot, g.names[r]), r, g.inclusive[r], 1);
    }
    if (rest > 0) tree.add_self(tree.child(CallTree::kRoot, kOtherCalls), rest);
    return tree;
}

valgrind::ToolOptions CallGraph::options(const MeasureSettings& settings) const {
    auto o = tool_options(settings, valgrind::Tool::Callgrind);
    o.collect_at_start = true;
    return o;
}

std::vector<BenchmarkResult> CallGraph::measure(Launcher& launcher, const BenchmarkSpec& spec,
                                                int /*attempt*/) const {
    return {measure_tree(launcher, spec).result};
}

CallProfile CallGraph::measure_tree(Launcher& launcher, const BenchmarkSpec& spec) const {
    const auto& weights = launcher.settings().weights;
    CallProfile out{start_result(spec, valgrind::Tool::Callgrind, launcher.settings()),
                    CallTree(spec.name)};
    BenchmarkSpec run = spec;
    run.warmup = 0;  // counts, not times: nothing to warm
    const exec::OutputDir staging;
    const Run launched =
        launcher.launch(run, {options(launcher.settings()), {}, staging.path()}, out.result, 0);
    if (out.result.status != BenchStatus::Ok) return out;
    const auto profile =
        launcher.profile(launched, {.collect_functions = true, .collect_calls = true});
    out.tree = call_tree_of(profile, weights, spec.name);
    out.result.events = profile.totals;
    out.result.cost = metrics::cost(profile.totals, weights);
    out.result.stderr_tail.clear();
    return out;
}

}  // namespace cgbench::runner
