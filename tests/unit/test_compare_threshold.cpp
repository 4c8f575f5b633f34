// Threshold syntax and precedence.

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "compare/threshold.hpp"
#include "run_fixtures.hpp"
#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

using metrics::Event;
using metrics::Hits;
using metrics::Metric;

std::optional<Threshold> find(const ThresholdSet& set, std::string_view name, Metric metric) {
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
    EXPECT_EQ(gated[0].first, Metric::cost());
    EXPECT_DOUBLE_EQ(gated[0].second.relative, 0.01);
    EXPECT_EQ(gated[0].second.absolute, kDefaultCostFloor);
    EXPECT_EQ(gated[0].second.describe(), "+1.00% and 1,000");
}

TEST(Threshold, ParsesMetricsPercentagesAndFloors) {
    ThresholdSet set;
    set.add("cost=2%,ir=0.5%|10000,D1MR=off");
    const auto cost = find(set, "x", Metric::cost());
    ASSERT_TRUE(cost);
    EXPECT_DOUBLE_EQ(cost->relative, 0.02);
    EXPECT_EQ(cost->absolute, 0u) << "a rule replaces the whole threshold, floor included";
    const auto ir = find(set, "x", Metric::event(Event::Ir));
    ASSERT_TRUE(ir) << "event names are case-insensitive and canonicalised";
    EXPECT_DOUBLE_EQ(ir->relative, 0.005);
    EXPECT_EQ(ir->absolute, 10000u);
    EXPECT_FALSE(find(set, "x", Metric::event(Event::D1mr))) << "off is not gated";
}

TEST(Threshold, GlobRulesWinOverGlobalOnesAndTheLastRuleWins) {
    ThresholdSet set;
    set.add("parse/*:cost=5%");
    set.add("cost=2%");  // global, given later, still loses to the glob for parse/*
    set.add("parse/large:cost=7%|5");
    set.add("a:b:ram_hits=3%");  // the pattern may hold ':'
    EXPECT_DOUBLE_EQ(find(set, "parse/small", Metric::cost())->relative, 0.05);
    EXPECT_DOUBLE_EQ(find(set, "parse/large", Metric::cost())->relative, 0.07);
    EXPECT_EQ(find(set, "parse/large", Metric::cost())->absolute, 5u);
    EXPECT_DOUBLE_EQ(find(set, "render", Metric::cost())->relative, 0.02);
    EXPECT_TRUE(find(set, "a:b", Metric::hits(Hits::Ram)));
    EXPECT_FALSE(find(set, "render", Metric::hits(Hits::Ram)));
    set.add("*:cost=off");
    EXPECT_TRUE(set.for_benchmark("render").empty());
}

TEST(Threshold, CostComesFirst) {
    ThresholdSet set;
    set.add("Ir=1%");
    set.add("cost=3%");
    const auto gated = set.for_benchmark("x");
    ASSERT_EQ(gated.size(), 2u);
    EXPECT_EQ(gated[0].first, Metric::cost());
    EXPECT_EQ(gated[1].first, Metric::event(Event::Ir));
}

// One grammar for run, suites and compare: what `run --threshold` and a suite's `threshold`
// accept, compare accepts too, with the same meaning (the metric defaults to cost).
TEST(Threshold, OneGrammarForEveryCommand) {
    for (const std::string spec :
         {"1%", " 0.5% ", "cost=2%|100000", "ir=0.5%, cost=1%", "Ir=1%,D1mr=5%,ram_hits=10%|50",
          "DLMW=3%", "2% | 1000", "parse/*:5%", "off", "legacy/*:cost=off"}) {
        EXPECT_NO_THROW(parse_threshold(spec)) << spec;
        EXPECT_EQ(validate_threshold(spec), std::string(util::trim(spec)));
    }
    const auto rules = parse_threshold("2%|1000,ir=0.5%");
    ASSERT_EQ(rules.size(), 2u);
    EXPECT_EQ(rules[0].metric, Metric::cost());
    EXPECT_DOUBLE_EQ(rules[0].threshold.relative, 0.02);
    EXPECT_EQ(rules[0].threshold.absolute, 1000u);
    EXPECT_EQ(rules[1].metric, Metric::event(Event::Ir));
    ThresholdSet set;
    set.add("2%");  // what compare --threshold refused before
    EXPECT_DOUBLE_EQ(find(set, "x", Metric::cost())->relative, 0.02);
    EXPECT_TRUE(parse_threshold("off")[0].threshold.off);
}

// The threshold a benchmark's result recorded sits between the default and the rules given
// to compare; rules given win, a glob rule given wins over everything.
TEST(Threshold, RecordedThresholdIsALayerBelowTheRulesGiven) {
    ThresholdSet set;
    const auto cost = [&set](std::string_view name, std::string_view recorded) {
        for (const auto& [m, t] : set.for_benchmark(name, recorded)) {
            if (m == Metric::cost()) return t;
        }
        return Threshold{0, 0, true};
    };
    EXPECT_DOUBLE_EQ(cost("x", "").relative, 0.01);
    EXPECT_DOUBLE_EQ(cost("x", "3%").relative, 0.03);
    EXPECT_EQ(cost("x", "3%").absolute, 0u) << "a rule replaces the floor too";
    EXPECT_TRUE(cost("x", "cost=off").off);
    EXPECT_DOUBLE_EQ(cost("parse/a", "parse/*:4%").relative, 0.04);
    EXPECT_DOUBLE_EQ(cost("render", "parse/*:4%").relative, 0.01) << "its glob does not match";
    set.add("5%");
    EXPECT_DOUBLE_EQ(cost("x", "3%").relative, 0.05);
    set.add("x:6%");
    EXPECT_DOUBLE_EQ(cost("x", "x:3%").relative, 0.06);
    EXPECT_THROW(set.for_benchmark("x", "fast"), UsageError);
}

TEST(Threshold, BadSpecsAreUsageErrors) {
    for (const std::string bad :
         {"", "cost", "cost=1", "cost=%", "cost=-1%", "cost=1%|", "cost=1%|x", "cost=1%|-5",
          "speed=1%", ":cost=1%", "x:", "cost=1%,", "cost=abc%", "2", "2 percent", "-1%",
          "1%,cost=2%", "1%,", "x:,"}) {
        ThresholdSet set;
        EXPECT_THROW(set.add(bad), UsageError) << bad;
    }
    const auto error_of = [](const std::string& spec) -> std::string {
        try {
            parse_threshold(spec);
        } catch (const UsageError& e) {
            return std::string(e.what()) + " | " + e.hint();
        }
        return "no error";
    };
    const std::string speed = error_of("speed=1%");
    EXPECT_NE(speed.find("unknown metric 'speed'"), std::string::npos) << speed;
    EXPECT_NE(speed.find("ram_hits"), std::string::npos) << "lists metrics";
    EXPECT_NE(speed.find("cost=1%|1000"), std::string::npos) << "shows the grammar";
    EXPECT_NE(error_of("1%,cost=2%").find("cost is limited twice"), std::string::npos);
    EXPECT_NE(error_of("2").find("needs a percentage"), std::string::npos);
    EXPECT_NE(error_of("x\x1b").find("\\x1b"), std::string::npos) << "printable in messages";
}

}  // namespace cgbench::compare
