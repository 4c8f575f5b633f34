// Threshold syntax, precedence and metric lookup.

#include <gtest/gtest.h>

#include "compare/threshold.hpp"
#include "core/errors.hpp"
#include "run_fixtures.hpp"

namespace cgbench::compare {

namespace {

std::optional<Threshold> find(const ThresholdSet& set, std::string_view name,
                              std::string_view metric) {
    for (const auto& [m, t] : set.for_benchmark(name)) {
        if (m == metric) return t;
    }
    return std::nullopt;
}

}  // namespace

TEST(Threshold, DefaultGatesCostAtOnePercentAndAFloor) {
    const ThresholdSet set;
    const auto gated = set.for_benchmark("anything");
    ASSERT_EQ(gated.size(), 1u);
    EXPECT_EQ(gated[0].first, "cost");
    EXPECT_DOUBLE_EQ(gated[0].second.relative, 0.01);
    EXPECT_EQ(gated[0].second.absolute, kDefaultCostFloor);
    EXPECT_EQ(gated[0].second.describe(), "+1.00% and 1,000");
}

TEST(Threshold, ParsesMetricsPercentagesAndFloors) {
    ThresholdSet set;
    set.add("cost=2%,ir=0.5%|10000,D1MR=off");
    const auto cost = find(set, "x", "cost");
    ASSERT_TRUE(cost);
    EXPECT_DOUBLE_EQ(cost->relative, 0.02);
    EXPECT_EQ(cost->absolute, 0u) << "a rule replaces the whole threshold, floor included";
    const auto ir = find(set, "x", "Ir");
    ASSERT_TRUE(ir) << "event names are case-insensitive and canonicalised";
    EXPECT_DOUBLE_EQ(ir->relative, 0.005);
    EXPECT_EQ(ir->absolute, 10000u);
    EXPECT_FALSE(find(set, "x", "D1mr")) << "off is not gated";
}

TEST(Threshold, GlobRulesWinOverGlobalOnesAndTheLastRuleWins) {
    ThresholdSet set;
    set.add("parse/*:cost=5%");
    set.add("cost=2%");  // global, given later, still loses to the glob for parse/*
    set.add("parse/large:cost=7%|5");
    set.add("a:b:ram_hits=3%");  // the pattern may hold ':'
    EXPECT_DOUBLE_EQ(find(set, "parse/small", "cost")->relative, 0.05);
    EXPECT_DOUBLE_EQ(find(set, "parse/large", "cost")->relative, 0.07);
    EXPECT_EQ(find(set, "parse/large", "cost")->absolute, 5u);
    EXPECT_DOUBLE_EQ(find(set, "render", "cost")->relative, 0.02);
    EXPECT_TRUE(find(set, "a:b", "ram_hits"));
    EXPECT_FALSE(find(set, "render", "ram_hits"));
    set.add("*:cost=off");
    EXPECT_TRUE(set.for_benchmark("render").empty());
}

TEST(Threshold, CostComesFirst) {
    ThresholdSet set;
    set.add("Ir=1%");
    set.add("cost=3%");
    const auto gated = set.for_benchmark("x");
    ASSERT_EQ(gated.size(), 2u);
    EXPECT_EQ(gated[0].first, "cost");
    EXPECT_EQ(gated[1].first, "Ir");
}

TEST(Threshold, BadSpecsAreUsageErrors) {
    for (const std::string bad :
         {"", "cost", "cost=1", "cost=%", "cost=-1%", "cost=1%|", "cost=1%|x", "cost=1%|-5",
          "speed=1%", ":cost=1%", "x:", "cost=1%,", "cost=abc%"}) {
        ThresholdSet set;
        EXPECT_THROW(set.add(bad), UsageError) << bad;
    }
    ThresholdSet set;
    try {
        set.add("speed=1%");
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown metric 'speed'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("ram_hits"), std::string::npos) << "lists metrics";
        EXPECT_NE(e.hint().find("cost=1%"), std::string::npos);
    }
}

TEST(Threshold, MetricValues) {
    const auto b = testing_fixtures::bench("x", 1000, 4242);
    EXPECT_EQ(metric_value(b, "cost"), 4242u);
    EXPECT_EQ(metric_value(b, "Ir"), 1000u);
    EXPECT_EQ(metric_value(b, "ram_hits"), b.derived->ram_hits);
    EXPECT_FALSE(metric_value(b, "Bc").has_value()) << "branch simulation was off";
    EXPECT_FALSE(metric_value(testing_fixtures::failed_bench("f"), "cost").has_value());
    EXPECT_EQ(canonical_metric("IR"), "Ir");
    EXPECT_EQ(canonical_metric("L1_Hits"), "l1_hits");
    EXPECT_FALSE(canonical_metric("cycles"));
}

}  // namespace cgbench::compare
