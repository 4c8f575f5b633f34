// Implausible results: regions that lost their body, variants that ignore their parameter.

#include <gtest/gtest.h>

#include "runner/plausibility.hpp"

namespace cgbench::runner {

namespace {

BenchmarkResult result(const std::string& name, std::uint64_t ir,
                       std::vector<std::string> command = {"./prog"}) {
    BenchmarkResult r;
    r.name = name;
    r.command = std::move(command);
    r.events.set(metrics::Event::Ir, ir);
    r.events.set(metrics::Event::Dr, ir / 3);
    r.events.set(metrics::Event::Dw, ir / 5);
    r.events.set(metrics::Event::D1mr, 7);
    return r;
}

BenchmarkResult region(const std::string& bench, const std::string& name, std::uint64_t ir) {
    BenchmarkResult r = result(bench + "/" + name, ir);
    r.tool = "callgrind";
    r.region = RegionInfo{name, 1};
    return r;
}

bool warned(const BenchmarkResult& r, const std::string& text) {
    for (const auto& w : r.warnings) {
        if (w.find(text) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

TEST(Plausibility, Families) {
    EXPECT_EQ(name_family("parse/1000"), "parse");
    EXPECT_EQ(name_family("workload 100"), "workload");
    EXPECT_EQ(name_family("BM_x/8/2"), "BM_x/8");
    EXPECT_EQ(name_family("size=10"), "size");
    EXPECT_EQ(name_family("plain"), "");
}

TEST(Plausibility, TinyRegionIsFlagged) {
    std::vector<BenchmarkResult> rs = {region("b", "optimised", 22), region("b", "real", 50000),
                                       result("whole", 500)};
    flag_implausible(rs);
    EXPECT_TRUE(warned(rs[0], "executed only 22 instructions"));
    EXPECT_TRUE(rs[1].warnings.empty());
    EXPECT_TRUE(rs[2].warnings.empty());  // whole programs are not held to the threshold
}

TEST(Plausibility, VariantsWithTheSameWorkAreFlagged) {
    std::vector<BenchmarkResult> rs = {result("varint/100", 90000), result("varint/200", 90000),
                                       result("varint/300", 120000), result("other", 90000)};
    flag_implausible(rs);
    EXPECT_TRUE(warned(rs[0], "costs exactly the same as 'varint/200'"));
    EXPECT_TRUE(warned(rs[1], "costs exactly the same as 'varint/100'"));
    EXPECT_TRUE(rs[2].warnings.empty());
    EXPECT_TRUE(rs[3].warnings.empty());  // same work, but not a variant
}

TEST(Plausibility, CacheMissesDoNotMakeVariantsDifferent) {
    std::vector<BenchmarkResult> rs = {region("b", "sum/100", 9032), region("b", "sum/200", 9032)};
    rs[1].events.set(metrics::Event::D1mr, 0);  // the second ran with warm caches
    flag_implausible(rs);
    EXPECT_TRUE(warned(rs[0], "is the parameter used?"));
}

TEST(Plausibility, SameProgramWithOtherArguments) {
    std::vector<BenchmarkResult> rs = {result("small", 5000, {"./prog", "10"}),
                                       result("large", 5000, {"./prog", "1000"}),
                                       result("again", 5000, {"./other", "1000"})};
    flag_implausible(rs);
    EXPECT_TRUE(warned(rs[0], "'large'"));
    EXPECT_TRUE(warned(rs[1], "'small'"));
    EXPECT_TRUE(rs[2].warnings.empty());
}

TEST(Plausibility, FailedResultsAndOtherToolsAreLeftAlone) {
    std::vector<BenchmarkResult> rs = {result("v/1", 100), result("v/2", 100),
                                       region("v", "3", 100)};
    rs[1].status = BenchStatus::Failed;
    flag_implausible(rs);
    EXPECT_TRUE(rs[0].warnings.empty());
    EXPECT_TRUE(rs[1].warnings.empty());
}

}  // namespace cgbench::runner

namespace cgbench::runner {

TEST(Plausibility, EmptyGbenchLoopIsFlagged) {
    const auto gbench = [](const std::string& name, std::uint64_t ir, std::uint64_t iterations) {
        BenchmarkResult r = result("bin/" + name, ir, {"./bin"});
        r.tool = "callgrind";
        r.gbench = GbenchInfo{name, iterations, 3};
        return r;
    };
    // An empty iteration takes 5 instructions; 15 per iteration over a 1000-iteration batch
    // is real work.
    std::vector<BenchmarkResult> rs = {gbench("BM_Naive", 5, 1), gbench("BM_Width/0", 24, 1),
                                       gbench("BM_Batch", 15, 1000)};
    flag_implausible(rs);
    EXPECT_TRUE(warned(rs[0], "one iteration of 'BM_Naive' executed only 5 instructions"));
    EXPECT_TRUE(rs[1].warnings.empty());
    EXPECT_TRUE(rs[2].warnings.empty());
}

}  // namespace cgbench::runner
