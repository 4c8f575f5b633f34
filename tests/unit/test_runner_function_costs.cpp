// Top functions of a profile: on the captured Cachegrind and Callgrind files of
// examples/varint, and on small hand-made profiles.

#include <gtest/gtest.h>

#include "runner/function_costs.hpp"
#include "util/fs.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::runner {

namespace {

valgrind::Profile ir_profile(const std::vector<std::pair<std::string, std::uint64_t>>& functions) {
    valgrind::Profile p;
    p.columns = {metrics::Event::Ir};
    p.column_names = {"Ir"};
    std::uint64_t total = 0;
    for (const auto& [name, ir] : functions) {
        metrics::EventCounts counts;
        counts.set(metrics::Event::Ir, ir);
        p.functions.push_back({"a.c", name, counts});
        total += ir;
    }
    p.totals.set(metrics::Event::Ir, total);
    return p;
}

void expect_costs_add_up(const std::vector<FunctionResult>& top, std::uint64_t cost) {
    std::uint64_t sum = 0;
    for (const auto& f : top)
        sum += f.cost;
    EXPECT_EQ(sum, cost);
}

}  // namespace

TEST(FunctionCosts, KeepsTheCostliestAndSumsTheRest) {
    const auto ir = metrics::parse_weights("ir");
    const auto top =
        top_functions(ir_profile({{"a", 5}, {"b", 50}, {"c", 7}, {"d", 0}, {"e", 6}}), ir, 2);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[0].name, "b");
    EXPECT_EQ(top[1].name, "c");
    EXPECT_EQ(top[2].name, kOtherFunctions);
    EXPECT_EQ(top[2].cost, 11u);
    EXPECT_EQ(top[2].events.get(metrics::Event::Ir), 11u);
    // Everything fits: no "(other)"; functions without cost are left out.
    const auto all = top_functions(ir_profile({{"a", 5}, {"d", 0}}), ir, 30);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].name, "a");
}

TEST(FunctionCosts, TiesAreOrderedByName) {
    const auto top =
        top_functions(ir_profile({{"z", 5}, {"m", 5}, {"a", 5}}), metrics::parse_weights("ir"), 2);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[0].name, "a");
    EXPECT_EQ(top[1].name, "m");
}

TEST(FunctionCosts, CapturedCachegrindProfile) {
    const auto profile = valgrind::parse_cachegrind(
        util::read_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/varint-branch.out"),
        {.collect_functions = true});
    const auto weights = metrics::parse_weights("pythonspeed");
    const auto top = top_functions(profile, weights);
    ASSERT_EQ(top.size(), kTopFunctions + 1);
    expect_costs_add_up(top, metrics::cost(profile.totals, weights));
    for (std::size_t i = 1; i < kTopFunctions; ++i)
        EXPECT_GE(top[i - 1].cost, top[i].cost);
    // Only the events the cost needs: no branch events.
    EXPECT_TRUE(top[0].events.has_cache_events());
    EXPECT_FALSE(top[0].events.has(metrics::Event::Bc));
}

TEST(FunctionCosts, TheParserCanKeepOnlyWhatTopFunctionsKeeps) {
    const std::string text =
        util::read_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/varint-cache.out");
    const auto weights = metrics::parse_weights("pythonspeed");
    const auto all =
        top_functions(valgrind::parse_cachegrind(text, {.collect_functions = true}), weights);
    const auto parsed = valgrind::parse_cachegrind(text, top_function_options(weights));
    EXPECT_EQ(parsed.functions.size(), kTopFunctions + 1);
    EXPECT_EQ(top_functions(parsed, weights), all);
}

TEST(FunctionCosts, CapturedCallgrindProfileWithInstructionWeights) {
    const auto profile = valgrind::parse_callgrind(
        util::read_file(std::string(CGBENCH_TEST_DATA) + "/callgrind/varint-cache.out"),
        {.collect_functions = true});
    const auto weights = metrics::parse_weights("ir");
    const auto top = top_functions(profile, weights);
    expect_costs_add_up(top, profile.totals.get(metrics::Event::Ir));
    EXPECT_TRUE(top[0].events.has(metrics::Event::Ir));
    EXPECT_FALSE(top[0].events.has(metrics::Event::Dr));
}

}  // namespace cgbench::runner
