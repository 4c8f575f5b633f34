// Call trees rebuilt from Callgrind's caller/callee costs (runner/call_stacks.hpp), on
// generated call graphs: shares, recursion, and the bounds on a profile of 100,000
// functions and on deep stacks. The real Callgrind run is in tests/e2e/test_flame_e2e.cpp.

#include <gtest/gtest.h>

#include <string>

#include "runner/call_stacks.hpp"

namespace cgbench::runner {

namespace {

metrics::Weights ir_weights() {
    metrics::Weights w;
    w.instructions_only = true;
    return w;
}

metrics::EventCounts ir(std::uint64_t n) {
    metrics::EventCounts c;
    c.set(metrics::Event::Ir, n);
    return c;
}

// A profile of functions (self Ir) and calls (inclusive Ir), as the parser fills it.
struct GraphBuilder {
    metrics::Profile profile;
    GraphBuilder& fn(const std::string& name, std::uint64_t self) {
        profile.functions.push_back({"f.c", name, ir(self)});
        return *this;
    }
    GraphBuilder& call(const std::string& from, const std::string& to, std::uint64_t cost) {
        profile.calls.push_back({"f.c", from, "f.c", to, ir(cost)});
        return *this;
    }
};

// The node at `path` (names below the root), or kNone.
std::uint32_t at(const CallTree& t, std::initializer_list<std::string_view> path) {
    std::uint32_t n = CallTree::kRoot;
    for (const auto name : path) {
        n = t.find(n, name);
        if (n == CallTree::kNone) break;
    }
    return n;
}

}  // namespace

// A function called from two places is split between them by what each call carries; the
// tree's total is the sum of the self costs.
TEST(CallStacks, SharesAFunctionAmongItsCallersByTheirCallsCost) {
    GraphBuilder g;
    g.fn("main", 10).fn("a", 40).fn("b", 20);
    g.call("main", "a", 30).call("main", "b", 30).call("b", "a", 10);
    const auto t = call_tree_of(g.profile, ir_weights(), "prog");
    EXPECT_EQ(t.total(), 70U);
    EXPECT_EQ(t.node(at(t, {"main"})).self, 10U);
    EXPECT_EQ(t.node(at(t, {"main", "a"})).total, 30U);
    EXPECT_EQ(t.node(at(t, {"main", "b"})).self, 20U);
    EXPECT_EQ(t.node(at(t, {"main", "b", "a"})).total, 10U);
    EXPECT_EQ(t.node(CallTree::kRoot).name, "prog");
}

// Direct and mutual recursion: a call back into a function on the path is not followed (its
// cost is that function's own), so the tree is finite and counts nothing twice.
TEST(CallStacks, RecursionEndsAtTheFunctionAlreadyOnThePath) {
    GraphBuilder g;
    // main calls f, which calls itself, then g, which calls f again (20 of f's own each
    // time, 10 of g's): Callgrind sums each function's self cost over every level.
    g.fn("main", 5).fn("f", 60).fn("g", 10);
    g.call("main", "f", 75).call("f", "f", 20).call("f", "g", 30).call("g", "f", 20);
    const auto t = call_tree_of(g.profile, ir_weights(), "prog");
    EXPECT_EQ(at(t, {"main", "f", "f"}), CallTree::kNone);
    EXPECT_EQ(at(t, {"main", "f", "g", "f"}), CallTree::kNone);
    ASSERT_NE(at(t, {"main", "f", "g"}), CallTree::kNone);
    // A cycle's calls overlap the costs of the functions in it: the tree may draw less than
    // the whole (75), never more.
    EXPECT_LE(t.total(), 75U);
    EXPECT_GT(t.total(), 55U);

    // Direct recursion alone (walk() calling itself, 3 levels of 10) is exact.
    GraphBuilder w;
    w.fn("main", 5).fn("walk", 30);
    w.call("main", "walk", 30).call("walk", "walk", 20);
    const auto tw = call_tree_of(w.profile, ir_weights(), "prog");
    EXPECT_EQ(tw.total(), 35U);
    EXPECT_EQ(tw.node(at(tw, {"main", "walk"})).self, 30U);
}

// 100,000 functions called from main, each too small to keep: one "(other)" frame holds them,
// and the tree stays small; a chain 10,000 calls deep is cut at kMaxCallDepth, its cost kept.
TEST(CallStacks, AHundredThousandFunctionsAndDeepStacksAreBounded) {
    GraphBuilder g;
    constexpr std::uint64_t kFunctions = 100'000;
    constexpr std::uint64_t kDepth = 10'000;
    g.fn("main", 1000);
    for (std::uint64_t i = 0; i < kFunctions; ++i) {
        g.fn("leaf" + std::to_string(i), 1);
        g.call("main", "leaf" + std::to_string(i), 1);
    }
    g.call("main", "d0", kDepth * 100);
    for (std::uint64_t i = 0; i < kDepth; ++i) {
        g.fn("d" + std::to_string(i), 100);
        if (i + 1 < kDepth)
            g.call("d" + std::to_string(i), "d" + std::to_string(i + 1), (kDepth - i - 1) * 100);
    }
    const auto t = call_tree_of(g.profile, ir_weights(), "prog");
    EXPECT_LE(t.size(), kMaxCallDepth + 10);
    EXPECT_EQ(t.total(), 1000 + kFunctions + kDepth * 100);
    const auto other = at(t, {"main", std::string(kOtherCalls)});
    ASSERT_NE(other, CallTree::kNone);
    EXPECT_EQ(t.node(other).total, kFunctions);
    std::size_t deepest = 0;
    for (std::uint32_t n = 0; n < t.size(); ++n)
        deepest = std::max(deepest, t.depth(n));
    EXPECT_LE(deepest, kMaxCallDepth + 1);
}

// A graph with no root (every function called by another) still gives a tree.
TEST(CallStacks, AGraphOfOnlyCyclesStartsAtItsCostliestFunction) {
    GraphBuilder g;
    g.fn("a", 10).fn("b", 20);
    g.call("a", "b", 25).call("b", "a", 5);
    const auto t = call_tree_of(g.profile, ir_weights(), "prog");
    EXPECT_NE(at(t, {"a"}), CallTree::kNone);
    EXPECT_GT(t.total(), 0U);
}

}  // namespace cgbench::runner
