#include "config/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace {

std::vector<std::size_t> by_name(const std::vector<std::string>& names) {
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
    return order;
}

// Shard (0-based) of every name: round-robin over the sorted names.
std::vector<std::size_t> round_robin(const std::vector<std::string>& names, std::size_t total) {
    std::vector<std::size_t> shard_of(names.size());
    const auto order = by_name(names);
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        shard_of[order[rank]] = rank % total;
    return shard_of;
}

// Costs are counts up to 2^64; sums saturate instead of wrapping around.
std::uint64_t add_saturating(std::uint64_t a, std::uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// Shard (0-based) of every name: longest processing time first onto the least-loaded shard.
std::vector<std::size_t> packed(const std::vector<std::string>& names, std::size_t total,
                                const CostMap& costs) {
    std::vector<std::uint64_t> cost(names.size());
    long double known_sum = 0;
    std::size_t known = 0;
    for (const auto& n : names) {
        if (const auto it = costs.find(n); it != costs.end()) {
            known_sum += static_cast<long double>(it->second);
            ++known;
        }
    }
    const auto mean =
        known == 0 ? 0 : static_cast<std::uint64_t>(known_sum / static_cast<long double>(known));
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto it = costs.find(names[i]);
        cost[i] = it != costs.end() ? it->second : mean;
    }
    auto order = by_name(names);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
    std::vector<std::uint64_t> load(total, 0);
    std::vector<std::size_t> shard_of(names.size());
    for (const std::size_t i : order) {
        const auto least = std::min_element(load.begin(), load.end()) - load.begin();
        shard_of[i] = static_cast<std::size_t>(least);
        load[shard_of[i]] = add_saturating(load[shard_of[i]], cost[i]);
    }
    return shard_of;
}

bool any_known(const std::vector<std::string>& names, const CostMap& costs) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return costs.count(n) != 0; });
}

}  // namespace

std::string Shard::text() const {
    return fmt::format("{}/{}", index, total);
}

Shard parse_shard(std::string_view text, std::string_view origin) {
    const auto slash = text.find('/');
    std::optional<std::uint64_t> k, n;
    if (slash != std::string_view::npos) {
        k = util::parse_u64(util::trim(text.substr(0, slash)));
        n = util::parse_u64(util::trim(text.substr(slash + 1)));
    }
    if (!k || !n || *k < 1 || *n < 1 || *k > *n) {
        throw UsageError(fmt::format("invalid shard '{}' (from {})", util::printable(text), origin),
                         "give K/N with 1 <= K <= N, e.g. --shard 2/3 for the second of three "
                         "jobs");
    }
    return Shard{static_cast<std::size_t>(*k), static_cast<std::size_t>(*n)};
}

std::vector<std::size_t> shard_members(const std::vector<std::string>& names, const Shard& shard,
                                       const std::optional<CostMap>& previous_costs) {
    const auto shard_of = previous_costs && any_known(names, *previous_costs)
                              ? packed(names, shard.total, *previous_costs)
                              : round_robin(names, shard.total);
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (shard_of[i] == shard.index - 1) members.push_back(i);
    }
    return members;
}

}  // namespace cgbench::config
