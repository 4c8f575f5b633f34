#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "base/errors.hpp"
#include "config/shard.hpp"

namespace cgbench::config {

namespace {

std::vector<std::string> names(std::size_t n) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back("bench/" + std::string(1, char('a' + (i * 7) % 26)) + std::to_string(i));
    return out;
}

// Every index exactly once over all shards.
void expect_partition(const std::vector<std::string>& all, std::size_t total,
                      const std::optional<CostMap>& costs) {
    std::vector<int> seen(all.size(), 0);
    for (std::size_t k = 1; k <= total; ++k) {
        const auto members = shard_members(all, Shard{k, total}, costs);
        EXPECT_TRUE(std::is_sorted(members.begin(), members.end()));
        for (const auto i : members)
            ++seen.at(i);
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

}  // namespace

TEST(Shard, ParsesKOverN) {
    const auto s = parse_shard("2/3", "--shard");
    EXPECT_EQ(s.index, 2u);
    EXPECT_EQ(s.total, 3u);
    EXPECT_EQ(s.text(), "2/3");
    EXPECT_EQ(parse_shard("1/1", "x").total, 1u);
    for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0", "-1/3", "", "1/3/4"}) {
        try {
            parse_shard(bad, "CI_NODE_INDEX/CI_NODE_TOTAL");
            ADD_FAILURE() << bad;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("CI_NODE_INDEX/CI_NODE_TOTAL"), std::string::npos);
        }
    }
}

TEST(Shard, ByNameCoversEverythingOnceAndIsBalanced) {
    for (const std::size_t n : {1u, 2u, 7u, 24u}) {
        for (const std::size_t total : {1u, 2u, 3u, 5u}) {
            const auto all = names(n);
            expect_partition(all, total, std::nullopt);
            for (std::size_t k = 1; k <= total; ++k) {
                const auto size = shard_members(all, Shard{k, total}, std::nullopt).size();
                EXPECT_LE(size, (n + total - 1) / total);
                EXPECT_GE(size, n / total);
            }
        }
    }
}

TEST(Shard, ByNameDependsOnNamesNotOnSuiteOrder) {
    const std::vector<std::string> a = {"c", "a", "d", "b"};
    const std::vector<std::string> b = {"a", "b", "c", "d"};
    const auto pick = [](const std::vector<std::string>& all, std::size_t k) {
        std::vector<std::string> out;
        for (const auto i : shard_members(all, Shard{k, 2}, std::nullopt))
            out.push_back(all[i]);
        std::sort(out.begin(), out.end());
        return out;
    };
    EXPECT_EQ(pick(a, 1), pick(b, 1));
    EXPECT_EQ(pick(a, 1), (std::vector<std::string>{"a", "c"}));
    EXPECT_EQ(pick(a, 2), (std::vector<std::string>{"b", "d"}));
}

TEST(Shard, LongestProcessingTimeFirstWithCosts) {
    // One heavy benchmark and many light ones: by name would put the heavy one with half of
    // the light ones; packing gives it a shard of its own.
    const std::vector<std::string> all = {"heavy", "l1", "l2", "l3", "l4"};
    const CostMap costs = {{"heavy", 100}, {"l1", 20}, {"l2", 20}, {"l3", 30}, {"l4", 25}};
    expect_partition(all, 2, costs);
    EXPECT_EQ(shard_members(all, Shard{1, 2}, costs), (std::vector<std::size_t>{0}));
    EXPECT_EQ(shard_members(all, Shard{2, 2}, costs), (std::vector<std::size_t>{1, 2, 3, 4}));
    // Equal costs tie-break by name, so the split is the same whoever computes it.
    const CostMap equal = {{"heavy", 5}, {"l1", 5}, {"l2", 5}, {"l3", 5}, {"l4", 5}};
    EXPECT_EQ(shard_members(all, Shard{1, 2}, equal), (std::vector<std::size_t>{0, 2, 4}));
}

TEST(Shard, UnknownCostsCountAsTheMean) {
    const std::vector<std::string> all = {"a", "b", "new"};
    const CostMap costs = {{"a", 10}, {"b", 30}};  // "new" counts as 20
    expect_partition(all, 2, costs);
    EXPECT_EQ(shard_members(all, Shard{1, 2}, costs), (std::vector<std::size_t>{1}));
    EXPECT_EQ(shard_members(all, Shard{2, 2}, costs), (std::vector<std::size_t>{0, 2}));
    // Costs for none of the names: by name, as without costs.
    const CostMap unrelated = {{"x", 1}};
    EXPECT_EQ(shard_members(all, Shard{1, 2}, unrelated),
              shard_members(all, Shard{1, 2}, std::nullopt));
}

TEST(Shard, HugeCostsDoNotWrapAround) {
    const std::vector<std::string> all = {"a", "b", "c"};
    const CostMap costs = {{"a", UINT64_MAX}, {"b", UINT64_MAX}, {"c", UINT64_MAX}};
    expect_partition(all, 2, costs);
}

}  // namespace cgbench::config
