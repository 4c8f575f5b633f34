// `cgbench run --regions --region-tool callgrind` end to end, what only Callgrind does:
// programs marked with include/cgbench/cgbench.h (tests/programs/regions.c) under the real
// Callgrind, which every Valgrind has. What both region tools promise is tested once for each
// in test_regions_both_tools_e2e.cpp; Cachegrind's own: test_cachegrind_regions_e2e.cpp.
// Expectations come from the programs' structure and from callgrind_annotate.

#include <gtest/gtest.h>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

using nlohmann::json;

// `cgbench run --regions --region-tool callgrind --format json ARGS` (exit 0 asserted).
json run_regions(std::vector<std::string> args) {
    args.insert(args.begin(), {"--regions", "--region-tool", "callgrind"});
    return run_document(args);
}

}  // namespace






TEST(RegionsE2E, EventsAddUpToWhatCallgrindCollected) {
    const auto dir = scratch("regions-raw");
    const auto doc = run_regions({"--keep-raw", dir.string(), "--name", "nested", "--",
                                  program("regions"), "nested", "2000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    // Parts: 1 = before "outer", 2 = outer before inner, 3 = inner, 4 = outer after inner,
    // and the final dump at exit (nested.callgrind.out).
    const auto stem = dir / "nested.callgrind.out";
    std::map<std::string, std::uint64_t> all, outer, inner;
    for (const int part : {1, 2, 3, 4, 0}) {
        const auto file = part == 0 ? stem : fs::path(stem.string() + "." + std::to_string(part));
        const auto totals = callgrind_totals_by_hand(file);
        ASSERT_EQ(totals.size(), 9u) << file;
        for (const auto& [event, value] : totals) {
            all[event] += value;
            if (part >= 2) outer[event] += value;
            if (part == 3) inner[event] += value;
        }
    }
    // Valgrind's own log counts what was collected over the whole run: the parts add up to it.
    EXPECT_EQ(all, log_collected(dir / "nested.valgrind.log"));
    for (const auto& [event, value] : outer) {
        EXPECT_EQ(doc["benchmarks"][0]["events"][event].get<std::uint64_t>(), value) << event;
        EXPECT_EQ(doc["benchmarks"][1]["events"][event].get<std::uint64_t>(), inner[event])
            << event;
    }
}

TEST(RegionsE2E, InstructionCountsEqualCallgrindAnnotate) {
    // callgrind_annotate reports a dump's `summary:` line. Without cache simulation it equals
    // the sum of the cost lines that cgbench reads; with it, summary and totals can differ by
    // a few events because a dump lands in the middle of a basic block (the test above shows
    // that the totals are the ones that add up to Valgrind's own count).
    const auto dir = scratch("regions-annotate");
    const auto doc = run_regions({"--weights", "ir", "--keep-raw", dir.string(), "--name", "r",
                                  "--", program("regions"), "setup", "2000"});
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    // Parts: 1 = before "tiny" begins, 2 = tiny, then the final dump.
    const auto annotated = callgrind_annotate_totals(dir / "r.callgrind.out.2");
    ASSERT_EQ(annotated.count("Ir"), 1u);
    EXPECT_EQ(ir(doc["benchmarks"][0]), annotated.at("Ir"));
}

TEST(RegionsE2E, OptimisedAwayRegionIsFlaggedInEveryFormat) {
    // Seed 000's "0 ns": the region's loop computes a value nobody uses.
    for (const std::string format : {"console", "markdown", "json", "junit"}) {
        const auto r = cgbench(
            {"run", "--regions", "--format", format, "--", program("regions"), "empty", "2000"});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("was its body optimised away?"), std::string::npos) << format << r.out;
    }
}

TEST(RegionsE2E, VariantsThatIgnoreTheirParameterAreFlagged) {
    const auto doc = run_regions({"--", program("regions"), "ignored"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    for (const auto& b : doc["benchmarks"]) {
        ASSERT_TRUE(b.contains("warnings")) << b.dump();
        EXPECT_NE(b["warnings"][0].get<std::string>().find("is the parameter used?"),
                  std::string::npos);
    }
    EXPECT_NE(
        doc["benchmarks"][0]["warnings"][0].get<std::string>().find("'regions ignored/sum/200'"),
        std::string::npos);
}

TEST(RegionsE2E, RegionNeverEndedIsNamed) {
    const auto dir = scratch("regions-unended");
    const auto r = cgbench({"run", "--regions", "--out", (dir / "r.json").string(), "--",
                            program("regions"), "unended", "100"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("began region 'open' and never ended it"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "r.json"));
}

TEST(RegionsE2E, NoRegionReachedNamesTheBenchmark) {
    const auto r = cgbench({"run", "--regions", "--name", "bench-without-regions", "--",
                            program("regions"), "none", "100"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("'bench-without-regions' reached no region"), std::string::npos) << r.err;
}

TEST(RegionsE2E, OverlappingRegionsAreRejected) {
    const auto r = cgbench({"run", "--regions", "--", program("regions"), "overlap"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("regions must nest"), std::string::npos) << r.err;
}

TEST(RegionsE2E, InstructionsOnlyRunsWithoutCacheSimulation) {
    const auto doc = run_regions({"--weights", "ir", "--", program("regions"), "setup", "2000"});
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["events"].size(), 1u);
    EXPECT_EQ(b["cost"], b["events"]["Ir"]);
    EXPECT_EQ(doc["run"]["fingerprint"]["cache_sim"], false);
}

}  // namespace cgbench::e2e
