// Which functions moved, on hand-made results.

#include <gtest/gtest.h>

#include "compare/attribution.hpp"

namespace cgbench::compare {

namespace {

BenchmarkResult result(const std::vector<std::pair<std::string, std::uint64_t>>& functions) {
    BenchmarkResult r;
    r.name = "bench";
    for (const auto& [name, cost] : functions) {
        r.functions.push_back(FunctionResult{"a.c", name, {}, cost});
        r.cost += cost;
    }
    return r;
}

}  // namespace

TEST(Attribution, RanksByTheSizeOfTheChange) {
    const auto base = result({{"alpha", 1000}, {"beta", 1000}, {"gamma", 500}});
    const auto head = result({{"alpha", 1000}, {"beta", 1100}, {"gamma", 480}});
    const auto changes = attribute_change(base, head);
    ASSERT_EQ(changes.size(), 2u);  // alpha did not move
    EXPECT_EQ(changes[0].name, "beta");
    EXPECT_EQ(changes[0].base, 1000u);
    EXPECT_EQ(changes[0].head, 1100u);
    EXPECT_EQ(changes[0].delta, 100);
    ASSERT_TRUE(changes[0].share);
    EXPECT_DOUBLE_EQ(*changes[0].share, 100.0 / 80.0);
    EXPECT_EQ(changes[1].name, "gamma");
    EXPECT_EQ(changes[1].delta, -20);
    EXPECT_DOUBLE_EQ(*changes[1].share, -20.0 / 80.0);
}

TEST(Attribution, FunctionsListedOnOneSideOnly) {
    const auto base = result({{"old", 300}, {"(other)", 10}});
    const auto head = result({{"new", 200}, {"(other)", 110}});
    const auto changes = attribute_change(base, head);
    ASSERT_EQ(changes.size(), 3u);
    EXPECT_EQ(changes[0].name, "old");
    EXPECT_FALSE(changes[0].head);
    EXPECT_EQ(changes[0].delta, -300);
    EXPECT_EQ(changes[1].name, "new");
    EXPECT_FALSE(changes[1].base);
    EXPECT_EQ(changes[2].name, "(other)");
    EXPECT_FALSE(changes[0].share);  // the total did not change
}

TEST(Attribution, LimitAndTies) {
    const auto base = result({{"a", 10}, {"b", 10}, {"c", 10}});
    const auto head = result({{"a", 11}, {"b", 9}, {"c", 11}});
    const auto changes = attribute_change(base, head, 2);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].name, "a");
    EXPECT_EQ(changes[1].name, "b");
}

TEST(Attribution, HugeCostsSaturate) {
    const auto base = result({{"a", 0}});
    const auto head = result({{"a", UINT64_MAX}});
    const auto changes = attribute_change(base, head);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].delta, INT64_MAX);
}

}  // namespace cgbench::compare
