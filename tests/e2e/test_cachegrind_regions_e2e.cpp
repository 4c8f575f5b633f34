// `cgbench run --regions --region-tool cachegrind` end to end, what only Cachegrind's regions
// do (Valgrind 3.22 and later; the tests skip, saying so, on an older Valgrind):
// tests/programs/regions.c under the real Cachegrind, a marker run and then one run per
// region. What both region tools promise: test_regions_both_tools_e2e.cpp. Expected numbers
// come from Valgrind's own files and logs (cg_annotate, "I refs").

#include <gtest/gtest.h>

#include <algorithm>

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
    const auto doc = run_regions({"--keep-raw", dir.string(), "--name", "nested", "--",
                                  program("regions"), "nested", "2000"});
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

TEST(CachegrindRegionsE2E, MarkersThatDoNotNestFailNamingTheRegion) {
    SKIP_WITHOUT_CACHEGRIND_REGIONS();
    for (const auto& [mode, message] :
         {std::pair{"unended", "began region 'open' and never ended it"},
          std::pair{"overlap", "ended region 'a' while 'b', begun inside it, was still open"},
          std::pair{"newline", "'a\\x0ab', which holds a newline"},
          std::pair{"none", "reached no region"}}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--regions", "--region-tool", "cachegrind",
                                "--", program("regions"), mode, "1000"});
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
        const auto r =
            cgbench({"run", "-q", "--no-db", "--regions", "--region-tool", tool, "--name", "r",
                     "--out", (dir / (std::string(tool) + ".json")).string(), "--",
                     program("regions"), "setup", "1000"});
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
