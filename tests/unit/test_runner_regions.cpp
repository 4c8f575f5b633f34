// Region costs from dump parts: synthetic parts for every shape of markers, and the parts
// Callgrind 3.19 wrote for tests/programs/regions.

#include <gtest/gtest.h>

#include "runner/regions.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::runner {

namespace {

using metrics::Event;

// A dump part with `ir` instructions, one function "f" holding them, and `trigger`.
valgrind::Profile part(std::uint64_t ir, const std::string& trigger) {
    valgrind::Profile p;
    p.tool = "callgrind";
    p.trigger = trigger;
    p.columns = {Event::Ir};
    p.column_names = {"Ir"};
    p.totals.set(Event::Ir, ir);
    p.functions.push_back({"a.c", "f", p.totals});
    return p;
}
valgrind::Profile begin(std::uint64_t ir, const std::string& name) {
    return part(ir, "Client Request: cgbench:begin:" + name);
}
valgrind::Profile end(std::uint64_t ir, const std::string& name) {
    return part(ir, "Client Request: cgbench:end:" + name);
}
valgrind::Profile termination(std::uint64_t ir) {
    return part(ir, "Program termination");
}

std::uint64_t ir_of(const RegionCost& r) {
    return r.profile.totals.get(Event::Ir);
}

}  // namespace

TEST(Regions, Markers) {
    const auto b = region_marker("Client Request: cgbench:begin:parse/large");
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->begin);
    EXPECT_EQ(b->name, "parse/large");
    const auto e = region_marker("Client Request: cgbench:end:x:y");
    ASSERT_TRUE(e);
    EXPECT_FALSE(e->begin);
    EXPECT_EQ(e->name, "x:y");
    EXPECT_FALSE(region_marker("Program termination"));
    EXPECT_FALSE(region_marker("Client Request: my own dump"));
}

TEST(Regions, RepeatedRegionIsSummed) {
    const auto a = attribute_regions(
        {begin(0, "step"), end(100, "step"), begin(7, "step"), end(100, "step"), termination(9)});
    ASSERT_TRUE(a.error.empty()) << a.error;
    ASSERT_EQ(a.regions.size(), 1u);
    EXPECT_EQ(a.regions[0].name, "step");
    EXPECT_EQ(a.regions[0].entries, 2u);
    EXPECT_EQ(ir_of(a.regions[0]), 200u);  // what lies between the entries is not counted
    ASSERT_EQ(a.regions[0].profile.functions.size(), 1u);
    EXPECT_EQ(a.regions[0].profile.functions[0].counts.get(Event::Ir), 200u);
}

TEST(Regions, NestedRegionsAreEachReported) {
    const auto a = attribute_regions({begin(0, "outer"), begin(10, "inner"), end(20, "inner"),
                                      end(30, "outer"), termination(5)});
    ASSERT_TRUE(a.error.empty()) << a.error;
    ASSERT_EQ(a.regions.size(), 2u);
    EXPECT_EQ(a.regions[0].name, "outer");
    EXPECT_EQ(ir_of(a.regions[0]), 60u);
    EXPECT_EQ(a.regions[1].name, "inner");
    EXPECT_EQ(ir_of(a.regions[1]), 20u);
}

TEST(Regions, RecursionCountsOnce) {
    const auto a = attribute_regions(
        {begin(0, "r"), begin(10, "r"), end(20, "r"), end(30, "r"), termination(0)});
    ASSERT_TRUE(a.error.empty()) << a.error;
    ASSERT_EQ(a.regions.size(), 1u);
    EXPECT_EQ(ir_of(a.regions[0]), 60u);
    EXPECT_EQ(a.regions[0].entries, 1u);
}

TEST(Regions, OtherDumpsSplitIntervalsWithoutChangingTheSums) {
    const auto a = attribute_regions(
        {begin(0, "r"), part(10, "Client Request: mine"), end(20, "r"), termination(0)});
    ASSERT_EQ(a.regions.size(), 1u);
    EXPECT_EQ(ir_of(a.regions[0]), 30u);
}

TEST(Regions, Errors) {
    EXPECT_EQ(attribute_regions({begin(0, "open"), termination(5)}).error,
              "began region 'open' and never ended it");
    EXPECT_EQ(attribute_regions({end(0, "x"), termination(5)}).error,
              "ended region 'x', which never began");
    EXPECT_EQ(
        attribute_regions({begin(0, "a"), begin(0, "b"), end(0, "a"), end(0, "b"), termination(0)})
            .error,
        "ended region 'a' while 'b', begun inside it, was still open (regions must nest)");
    const auto none = attribute_regions({termination(100)});
    EXPECT_TRUE(none.error.empty());
    EXPECT_TRUE(none.regions.empty());
}

TEST(Regions, PartsWithOtherEventsAreRejected) {
    auto odd = end(10, "r");
    odd.column_names = {"Dr"};
    EXPECT_THROW(attribute_regions({begin(0, "r"), begin(5, "q"), odd}), UsageError);
}

TEST(Regions, CapturedNestedRun) {
    const auto parts = valgrind::parse_callgrind_parts(std::string(CGBENCH_TEST_DATA) +
                                                       "/callgrind/regions-nested.out");
    const auto a = attribute_regions(parts);
    ASSERT_TRUE(a.error.empty()) << a.error;
    ASSERT_EQ(a.regions.size(), 2u);
    // outer = parts 2..4, inner = part 3.
    EXPECT_EQ(ir_of(a.regions[1]), parts[2].totals.get(Event::Ir));
    EXPECT_EQ(ir_of(a.regions[0]), parts[1].totals.get(Event::Ir) + parts[2].totals.get(Event::Ir) +
                                       parts[3].totals.get(Event::Ir));
    EXPECT_TRUE(a.regions[0].profile.totals.has_cache_events());
}

}  // namespace cgbench::runner
