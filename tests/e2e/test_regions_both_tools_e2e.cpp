// What `cgbench run --regions` promises whichever tool measures the regions: the same tests
// under `--region-tool callgrind` (every Valgrind) and `--region-tool cachegrind` (Valgrind
// 3.22 and later; skipped, saying so, on an older one). What only one tool does is tested in
// test_regions_e2e.cpp (Callgrind) and test_cachegrind_regions_e2e.cpp (Cachegrind).
// Expectations come from tests/programs/regions.c's structure: N units of work here, 2N there.

#include <gtest/gtest.h>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

using nlohmann::json;

class RegionsBothToolsE2E : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        if (GetParam() == "cachegrind") SKIP_WITHOUT_CACHEGRIND_REGIONS();
    }

    // `cgbench run --no-db --regions --region-tool TOOL --format json ARGS` (exit 0 asserted).
    json run_regions(std::vector<std::string> args) const {
        args.insert(args.begin(), {"--no-db", "--regions", "--region-tool", GetParam()});
        return run_document(args);
    }
};

}  // namespace

TEST_P(RegionsBothToolsE2E, RepeatedRegionIsSummed) {
    const auto repeated = run_regions({"--", program("regions"), "repeated", "3000"});
    const auto once = run_regions({"--", program("regions"), "setup", "3000"});
    ASSERT_EQ(repeated["benchmarks"].size(), 1u);
    ASSERT_EQ(once["benchmarks"].size(), 1u);
    const auto& step = repeated["benchmarks"][0];
    EXPECT_EQ(step["name"], "regions repeated 3000/step");
    EXPECT_EQ(step["region"]["name"], "step");
    EXPECT_EQ(step["region"]["entries"], 3);
    EXPECT_EQ(step["tool"], GetParam());
    EXPECT_EQ(repeated["run"]["fingerprint"]["tool"], GetParam());
    // Three entries of N units each, against one entry of N units ("tiny" in setup mode).
    EXPECT_EQ(ir(step), 3 * ir(once["benchmarks"][0]));
}

TEST_P(RegionsBothToolsE2E, NestedRegionsAreEachReported) {
    const auto doc = run_regions({"--", program("regions"), "nested", "3000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    const auto& outer = doc["benchmarks"][0];
    const auto& inner = doc["benchmarks"][1];
    EXPECT_EQ(outer["name"], "regions nested 3000/outer");
    EXPECT_EQ(inner["name"], "regions nested 3000/inner");
    EXPECT_EQ(outer["region"]["entries"], 1);
    // outer: N + 2N (inner) + N units; inner: 2N units. Markers add a few dozen instructions.
    const double ratio = static_cast<double>(ir(outer)) / static_cast<double>(ir(inner));
    EXPECT_NEAR(ratio, 2.0, 0.01);
}

TEST_P(RegionsBothToolsE2E, CxxScopeObjectWithRuntimeNames) {
    const auto doc = run_regions({"--", program("regions_raii"), "3000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "regions_raii 3000/load");
    EXPECT_EQ(doc["benchmarks"][1]["name"], "regions_raii 3000/load/parse");
}

TEST_P(RegionsBothToolsE2E, RegionExcludesTheSetup) {
    const auto whole = measure_events({"--no-db", "--", program("regions"), "setup", "3000"});
    const auto region = run_regions({"--", program("regions"), "setup", "3000"});
    ASSERT_FALSE(whole.empty());
    ASSERT_EQ(region["benchmarks"].size(), 1u);
    // 100N units of setup and N units in the region: the region is about 1% of the program.
    const auto whole_ir = whole["Ir"].get<std::uint64_t>();
    EXPECT_LT(ir(region["benchmarks"][0]) * 50, whole_ir);
    EXPECT_GT(ir(region["benchmarks"][0]) * 200, whole_ir);
}

TEST_P(RegionsBothToolsE2E, SameCommandTwiceGivesIdenticalEvents) {
    const std::vector<std::string> args = {"--", program("regions"), "nested", "2000"};
    const auto a = run_regions(args);
    const auto b = run_regions(args);
    ASSERT_EQ(a["benchmarks"].size(), 2u);
    ASSERT_EQ(b["benchmarks"].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(a["benchmarks"][i]["events"], b["benchmarks"][i]["events"]) << i;
    }
}

std::string tool_name(const ::testing::TestParamInfo<std::string>& tool) {
    return tool.param;
}

INSTANTIATE_TEST_SUITE_P(Tools, RegionsBothToolsE2E, ::testing::Values("callgrind", "cachegrind"),
                         tool_name);

}  // namespace cgbench::e2e
