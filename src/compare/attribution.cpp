#include "compare/attribution.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

// b - a as a signed 64-bit number, saturating (costs are unsigned 64-bit).
std::int64_t signed_delta(std::uint64_t a, std::uint64_t b) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (b >= a) return static_cast<std::int64_t>(std::min(b - a, kMax));
    return -static_cast<std::int64_t>(std::min(a - b, kMax));
}

std::uint64_t magnitude(std::int64_t v) {
    return v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
}

}  // namespace

std::vector<FunctionChange> attribute_change(const BenchmarkResult& base,
                                             const BenchmarkResult& head, std::size_t limit) {
    std::map<std::pair<std::string, std::string>, FunctionChange> by_key;
    for (const auto& f : base.functions) {
        auto& c = by_key[{f.file, f.name}];
        c.file = f.file;
        c.name = f.name;
        c.base = f.cost;
    }
    for (const auto& f : head.functions) {
        auto& c = by_key[{f.file, f.name}];
        c.file = f.file;
        c.name = f.name;
        c.head = f.cost;
    }
    const std::int64_t total = signed_delta(base.cost, head.cost);
    std::vector<FunctionChange> out;
    for (auto& [key, c] : by_key) {
        c.delta = signed_delta(c.base.value_or(0), c.head.value_or(0));
        if (c.delta == 0) continue;
        if (total != 0) c.share = static_cast<double>(c.delta) / static_cast<double>(total);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const FunctionChange& a, const FunctionChange& b) {
        return magnitude(a.delta) > magnitude(b.delta);
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

namespace {

// Counted processes by key: "command", then "command #2", ... for repeats.
std::map<std::string, std::uint64_t> process_costs(const BenchmarkResult& b) {
    std::map<std::string, std::uint64_t> out;
    if (b.processes.empty()) {
        out[util::join(b.command, " ")] = b.cost;
        return out;
    }
    std::map<std::string, int> seen;
    for (const auto& p : b.processes) {
        if (!p.counted) continue;
        const int n = ++seen[p.command];
        out[n == 1 ? p.command : p.command + " #" + std::to_string(n)] = p.cost;
    }
    return out;
}

}  // namespace

std::vector<ProcessChange> attribute_process_change(const BenchmarkResult& base,
                                                    const BenchmarkResult& head,
                                                    std::size_t limit) {
    if (base.processes.empty() && head.processes.empty()) return {};
    std::map<std::string, ProcessChange> by_key;
    for (const auto& [key, cost] : process_costs(base)) {
        by_key[key].process = key;
        by_key[key].base = cost;
    }
    for (const auto& [key, cost] : process_costs(head)) {
        by_key[key].process = key;
        by_key[key].head = cost;
    }
    const std::int64_t total = signed_delta(base.cost, head.cost);
    std::vector<ProcessChange> out;
    for (auto& [key, c] : by_key) {
        c.delta = signed_delta(c.base.value_or(0), c.head.value_or(0));
        if (c.delta == 0 && c.base && c.head) continue;
        if (total != 0) c.share = static_cast<double>(c.delta) / static_cast<double>(total);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const ProcessChange& a, const ProcessChange& b) {
        return magnitude(a.delta) > magnitude(b.delta);
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace cgbench::compare
