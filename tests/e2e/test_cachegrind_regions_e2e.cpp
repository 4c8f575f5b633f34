// `cgbench run --regions --region-tool cachegrind` end to end (Valgrind 3.22 and later; the
// tests skip, saying so, on an older Valgrind): tests/programs/regions.c under the real
// Cachegrind, a marker run and then one run per region. Expected numbers come from the
// programs' structure and from Valgrind's own files and logs (cg_annotate, "I refs").

#include <gtest/gtest.h>

#include "e2e/harness.hpp"
#include "util/strings.hpp"

namespace cgbench::e2e {

namespace {

using nlohmann::json;

// `cgbench run --regions --region-tool cachegrind --format json ARGS` (exit 0 asserted).
json run_regions(std::vector<std::string> args) {
    args.insert(args.begin(), {"--no-db", "--regions", "--region-tool", "cachegrind"});
    return run_document(args);
}

}  // namespace

TEST(CachegrindRegionsE2E, EventsEqualCachegrindsOwnTotalsForEachRegion) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto dir = scratch("cg-regions-raw");
    const auto doc = run_regions(
        {"--keep-raw", dir.string(), "--name", "nested", "--", program("regions"), "nested", "2000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    for (const auto& b : doc["benchmarks"]) {
        SCOPED_TRACE(b["name"].get<std::string>());
        EXPECT_EQ(b["tool"], "cachegrind");
        // One Cachegrind run per region, kept as NAME_REGION.*: its own totals are the result.
        const std::string stem = util::file_safe(b["name"].get<std::string>());
        const auto totals = cg_annotate_totals(dir / (stem + ".cachegrind.out"));
        ASSERT_EQ(totals.size(), 9u);
        for (const auto& [event, value] : totals) {
            EXPECT_EQ(b["events"][event].get<std::uint64_t>(), value) << event;
        }
        EXPECT_EQ(log_instruction_refs(dir / (stem + ".valgrind.log")), ir(b));
    }
}

TEST(CachegrindRegionsE2E, NestedRegionsAreEachReported) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto doc = run_regions({"--", program("regions"), "nested", "3000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    const auto& outer = doc["benchmarks"][0];
    const auto& inner = doc["benchmarks"][1];
    EXPECT_EQ(outer["name"], "regions nested 3000/outer");
    EXPECT_EQ(inner["name"], "regions nested 3000/inner");
    EXPECT_EQ(outer["region"]["entries"], 1);
    // outer: N + 2N (inner) + N units; inner: 2N units.
    const double ratio = static_cast<double>(ir(outer)) / static_cast<double>(ir(inner));
    EXPECT_NEAR(ratio, 2.0, 0.01);
}

TEST(CachegrindRegionsE2E, RepeatedRegionIsSummed) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto repeated = run_regions({"--", program("regions"), "repeated", "3000"});
    const auto once = run_regions({"--", program("regions"), "setup", "3000"});
    ASSERT_EQ(repeated["benchmarks"].size(), 1u);
    ASSERT_EQ(once["benchmarks"].size(), 1u);
    const auto& step = repeated["benchmarks"][0];
    EXPECT_EQ(step["region"]["entries"], 3);
    // Three entries of N units each, against one entry of N units ("tiny" in setup mode).
    EXPECT_EQ(ir(step), 3 * ir(once["benchmarks"][0]));
}

TEST(CachegrindRegionsE2E, RegionExcludesTheSetup) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto whole = measure_events({"--", program("regions"), "setup", "3000"});
    const auto region = run_regions({"--", program("regions"), "setup", "3000"});
    ASSERT_FALSE(whole.empty());
    ASSERT_EQ(region["benchmarks"].size(), 1u);
    const auto whole_ir = whole["Ir"].get<std::uint64_t>();
    EXPECT_LT(ir(region["benchmarks"][0]) * 50, whole_ir);
    EXPECT_GT(ir(region["benchmarks"][0]) * 200, whole_ir);
}

TEST(CachegrindRegionsE2E, SameCommandTwiceGivesIdenticalEvents) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const std::vector<std::string> args = {"--", program("regions"), "nested", "2000"};
    const auto a = run_regions(args);
    const auto b = run_regions(args);
    ASSERT_EQ(a["benchmarks"].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(a["benchmarks"][i]["events"], b["benchmarks"][i]["events"]) << i;
    }
}

TEST(CachegrindRegionsE2E, CxxScopeObjectWithRuntimeNames) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto doc = run_regions({"--", program("regions_raii"), "3000"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "regions_raii 3000/load");
    EXPECT_EQ(doc["benchmarks"][1]["name"], "regions_raii 3000/load/parse");
}

TEST(CachegrindRegionsE2E, MarkersThatDoNotNestFailNamingTheRegion) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    for (const auto& [mode, message] :
         {std::pair{"unended", "began region 'open' and never ended it"},
          std::pair{"overlap", "ended region 'a' while 'b', begun inside it, was still open"},
          std::pair{"newline", "'a\\x0ab', which holds a newline"},
          std::pair{"none", "reached no region"}}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--regions", "--region-tool",
                                "cachegrind", "--", program("regions"), mode, "1000"});
        EXPECT_EQ(r.exit_code, 3) << mode << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << mode << ": " << r.err;
    }
}

// auto is Cachegrind here; the fingerprint records how it ran.
TEST(CachegrindRegionsE2E, AutoChoosesCachegrindAndTheFingerprintSaysHow) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const Result r = cgbench({"run", "--no-db", "--regions", "--format", "json", "--",
                              program("regions"), "setup", "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = json::parse(r.out);
    EXPECT_EQ(doc["benchmarks"][0]["tool"], "cachegrind");
    EXPECT_EQ(doc["run"]["fingerprint"]["tool"], "cachegrind");
    const auto& options = doc["run"]["fingerprint"]["valgrind_options"];
    EXPECT_NE(std::find(options.begin(), options.end(), "--instr-at-start=no"), options.end());
}

// Results of the two tools are never compared: compare refuses, and with --force reports
// the regions as added.
TEST(CachegrindRegionsE2E, CompareNeverPairsRegionsOfTwoTools) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    const auto dir = scratch("cg-regions-compare");
    for (const char* tool : {"callgrind", "cachegrind"}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--regions", "--region-tool", tool,
                                "--name", "r", "--out", (dir / (std::string(tool) + ".json")).string(),
                                "--", program("regions"), "setup", "1000"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const std::vector<std::string> files = {(dir / "callgrind.json").string(),
                                            (dir / "cachegrind.json").string()};
    const auto refused = cgbench({"compare", "--no-db", files[0], files[1]});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_NE(refused.err.find("results of two tools are never compared"), std::string::npos)
        << refused.err;
    const auto forced =
        cgbench({"compare", "--no-db", "--force", "--format", "json", files[0], files[1]});
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    const auto doc = json::parse(forced.out);
    EXPECT_EQ(doc["benchmarks"][0]["verdict"], "added") << forced.out;
}

}  // namespace cgbench::e2e
