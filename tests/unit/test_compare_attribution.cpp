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

TEST(Attribution, NamesWithoutParameterLists) {
    EXPECT_EQ(function_without_parameters("ns::f(int)"), "ns::f");
    EXPECT_EQ(function_without_parameters("S::get() const &"), "S::get");
    EXPECT_EQ(
        function_without_parameters("std::vector<int, std::allocator<int> >::push_back(int&&)"),
        "std::vector<int, std::allocator<int> >::push_back");
    EXPECT_EQ(function_without_parameters("operator()(std::function<void (int)>)"), "operator()");
    EXPECT_EQ(function_without_parameters("(below main)"), "(below main)");
    EXPECT_EQ(function_without_parameters("main"), "main");
    EXPECT_EQ(function_without_parameters("unbalanced)"), "unbalanced)");
}

// Callgrind 3.24 names an overloaded C++ function without its parameters, 3.25 and later with
// them: one function, matched across the change, keeping the head's name.
TEST(Attribution, OneFunctionNamedWithAndWithoutItsParameters) {
    const auto base = result({{"ns::parse", 1000}, {"main", 200}});
    const auto head = result({{"ns::parse(char const*)", 1100}, {"main", 200}});
    const auto changes = attribute_change(base, head);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].name, "ns::parse(char const*)");
    EXPECT_EQ(changes[0].base_name, "ns::parse");
    EXPECT_EQ(changes[0].base, 1000u);
    EXPECT_EQ(changes[0].head, 1100u);
    EXPECT_EQ(changes[0].delta, 100);
}

// Not matched: two overloads could be the one the base named; one overload replaced by another
// is a change of the code, not of the naming.
TEST(Attribution, AmbiguousOrDifferentOverloadsStayApart) {
    const auto two =
        attribute_change(result({{"f", 500}}), result({{"f(int)", 300}, {"f(double)", 200}}));
    EXPECT_EQ(two.size(), 3u);
    const auto swapped = attribute_change(result({{"g(int)", 500}}), result({{"g(double)", 500}}));
    ASSERT_EQ(swapped.size(), 2u);
    EXPECT_TRUE(swapped[0].base_name.empty());
    EXPECT_TRUE(swapped[1].base_name.empty());
}

}  // namespace cgbench::compare
