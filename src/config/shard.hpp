#pragma once
// Sharding a suite over CI jobs (the CI system's job matrix is the distributed engine):
// `--shard K/N` runs a deterministic 1/N of the benchmarks, so N jobs together run each
// benchmark exactly once and `cgbench merge` joins their result files into one run.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::config {

struct Shard {
    std::size_t index = 1;  // 1-based, as GitLab's CI_NODE_INDEX
    std::size_t total = 1;
    std::string text() const;  // "K/N"
};

// A previous cost per benchmark name, for balancing shards.
using CostMap = std::map<std::string, std::uint64_t>;

// Parses "K/N" with 1 <= K <= N. Throws UsageError naming `origin` ("--shard",
// "CI_NODE_INDEX/CI_NODE_TOTAL") otherwise.
Shard parse_shard(std::string_view text, std::string_view origin);

// The indices (ascending) of the `names` that shard `shard` runs. The assignment depends only
// on the names, the shard count and the costs, so every job of a CI matrix computes the same
// split. With costs known for some names: greedy longest-processing-time packing (highest cost
// first, ties by name, each to the least-loaded shard, ties to the lowest shard; a name
// without a cost counts as the mean of the known ones). Otherwise round-robin over the names
// in sorted order. All jobs must be given the same costs.
std::vector<std::size_t> shard_members(const std::vector<std::string>& names, const Shard& shard,
                                       const std::optional<CostMap>& previous_costs);

}  // namespace cgbench::config
