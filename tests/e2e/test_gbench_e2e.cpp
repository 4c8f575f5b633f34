// `cgbench run --gbench` end to end: tests/programs/gbench.cpp and examples/gbench_varint.cpp
// (Google Benchmark binaries) under the real Callgrind. By default the binaries linked with
// Debian's libbenchmark (1.7.1); with CGBENCH_GBENCH_DIR the ones in that directory
// (ctest's Gbench19.GbenchE2E.*: the same sources built against Google Benchmark 1.9.1).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>

#include "e2e/harness.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::e2e {

namespace {

using nlohmann::json;

// Runs `cgbench run --format json ARGS` and returns the document (asserting `exit_code`).
json run_json(const std::vector<std::string>& args, int exit_code = 0) {
    std::vector<std::string> all = {"run", "--no-db", "--format", "json"};
    all.insert(all.end(), args.begin(), args.end());
    const Result r = cgbench(all);
    EXPECT_EQ(r.exit_code, exit_code) << r.err;
    return r.out.empty() ? json() : json::parse(r.out);
}

// The one line cgbench prints on stderr for a usage error.
std::size_t lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// CGBENCH_GBENCH_DIR: where the binaries under test are; empty for this build's own
// (tests/programs/gbench and examples/gbench_varint, with Debian's libbenchmark).
std::string other_gbench_dir() {
    const char* dir = std::getenv("CGBENCH_GBENCH_DIR");
    return dir != nullptr ? dir : "";
}
fs::path gbench_dir() {
    const std::string dir = other_gbench_dir();
    return dir.empty() ? fs::path(program("")) : fs::path(dir);
}
std::string gbench() {
    return (gbench_dir() / "gbench").string();
}
std::string gbench_varint() {
    const std::string dir = other_gbench_dir();
    return dir.empty() ? example("gbench_varint") : dir + "/gbench_varint";
}

// The version of the library they are linked with, as CMake found it ("1.9.1").
std::string gbench_version() {
    return std::string(util::trim(util::read_file(gbench_dir() / "benchmark-version")));
}
bool gbench_at_least_1_8() {
    return util::version_at_least(gbench_version(), 1, 8);
}

}  // namespace

// Skips every test when the binaries could not be built because their library could not be
// fetched (tests/gbench/build-programs.sh leaves its "SKIPPED: ..." line next to them); fails
// when they are missing for any other reason.
class GbenchE2E : public ::testing::Test {
  protected:
    void SetUp() override {
        const fs::path skipped = gbench_dir() / "SKIPPED";
        if (fs::exists(skipped)) GTEST_SKIP() << util::trim(util::read_file(skipped));
        ASSERT_TRUE(fs::exists(gbench())) << gbench() << " was not built";
    }
};

TEST_F(GbenchE2E, LoopCostIsLinearRepeatableAndIndependentOfJobs) {
    const std::vector<std::string> args = {"--gbench", gbench(), "--filter", "^BM_(Loop|Paused)"};
    auto with_jobs = [&](const std::string& jobs) {
        std::vector<std::string> a = {"-j", jobs};
        a.insert(a.end(), args.begin(), args.end());
        return run_json(a);
    };
    const json j2 = with_jobs("2");
    const auto& b = j2["benchmarks"];
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0]["name"], "gbench/BM_Loop/1000");
    EXPECT_EQ(b[0]["tool"], "callgrind");
    EXPECT_EQ(b[0]["gbench"]["benchmark"], "BM_Loop/1000");
    EXPECT_EQ(b[0]["gbench"]["iterations"], 1);
    EXPECT_EQ(b[0]["gbench"]["repetitions"], 3);
    // Work linear in the argument, fixed overhead gone: 2000 costs twice 1000 within 0.5%.
    const double ratio = static_cast<double>(ir(b[1])) / static_cast<double>(ir(b[0]));
    EXPECT_NEAR(ratio, 2.0, 0.01) << ir(b[0]) << " " << ir(b[1]);
    // BM_Paused: 100 additions measured, the 100,000 of its paused setup not.
    EXPECT_GT(ir(b[2]), 300u);
    EXPECT_LT(ir(b[2]), 1000u);
    // Event for event the same in a second run, one benchmark at a time.
    EXPECT_EQ(benchmarks_without_wall_time(with_jobs("1")), benchmarks_without_wall_time(j2));
}

TEST_F(GbenchE2E, FixturesTemplatesAndRangesAreSeparateResults) {
    const json doc = run_json({"--gbench", gbench(), "--filter", "Filled|Unrolled|Range"});
    std::vector<std::string> names;
    for (const auto& b : doc["benchmarks"])
        names.push_back(b["name"]);
    EXPECT_EQ(names, (std::vector<std::string>{"gbench/Filled/Sum/100", "gbench/BM_Unrolled<16>",
                                               "gbench/BM_Range/8", "gbench/BM_Range/64"}));
    // BM_Range: the same loop over 8 and 64 bytes, its buffer set up outside the loop.
    EXPECT_GT(ir(doc["benchmarks"][3]), 5 * ir(doc["benchmarks"][2]));
}

TEST_F(GbenchE2E, FilterMatchingNothingIsAUsageError) {
    const Result r = cgbench({"run", "--no-db", "--gbench", gbench(), "--filter", "^nope$"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("matches no benchmark"), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST_F(GbenchE2E, OtherProgramIsAUsageError) {
    const Result r = cgbench({"run", "--no-db", "--gbench", program("workload")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("is not a Google Benchmark binary"), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST_F(GbenchE2E, SkipWithErrorFailsWithItsMessage) {
    const json doc = run_json({"--gbench", gbench(), "--filter", "^BM_Skipped$"}, 3);
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["status"], "failed");
    EXPECT_EQ(b["error"], "called SkipWithError: input file missing");
    EXPECT_FALSE(b.contains("cost") && b["cost"].get<std::uint64_t>() > 0);
}

TEST_F(GbenchE2E, SkipWithMessageFailsWithItsMessage) {
    if (!gbench_at_least_1_8()) {
        GTEST_SKIP() << "SkipWithMessage is Google Benchmark 1.8+, " << gbench() << " has "
                     << gbench_version() << " (Gbench19.GbenchE2E.* runs this on 1.9.1)";
    }
    const json doc = run_json({"--gbench", gbench(), "--filter", "^BM_SkippedWithMessage$"}, 3);
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["status"], "failed");
    EXPECT_EQ(b["error"], "was skipped (SkipWithMessage): no input of this size");
    EXPECT_FALSE(b.contains("cost") && b["cost"].get<std::uint64_t>() > 0);
}

TEST_F(GbenchE2E, MultithreadedBenchmarkIsRefused) {
    const json doc = run_json({"--gbench", gbench(), "--filter", "Threaded"}, 3);
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "gbench/BM_Threaded/threads:2");
    EXPECT_EQ(doc["benchmarks"][0]["error"],
              "runs on 2 threads; cgbench measures single-threaded benchmarks");
}

TEST_F(GbenchE2E, NaiveVarintIsFlagged) {
    const json doc = run_json(
        {"--gbench", gbench_varint(), "--filter", "^BM_OneshotVarintParsing(SingleWidth/0)?$"});
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    const auto& naive = doc["benchmarks"][0];
    ASSERT_TRUE(naive.contains("warnings"));
    EXPECT_NE(naive["warnings"][0].get<std::string>().find("optimised away"), std::string::npos);
    EXPECT_FALSE(doc["benchmarks"][1].contains("warnings")) << doc["benchmarks"][1];
}

TEST_F(GbenchE2E, SuiteEntry) {
    const auto dir = scratch("gbench-suite");
    const auto suite = write_suite(dir, "[[gbench]]\nname = \"gb\"\nbinary = \"" + gbench() +
                                            "\"\nfilter = \"BM_Range\"\nthreshold = \"2%\"\n");
    const json doc = run_json({"--suite", suite.string(), "--filter", "/64$"});
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "gb/BM_Range/64");
    EXPECT_EQ(doc["benchmarks"][0]["threshold"], "2%");
    // `config show` lists the listed benchmarks, each with where its filter came from.
    const Result shown = cgbench({"config", "show", "--suite", suite.string()});
    EXPECT_EQ(shown.exit_code, 0) << shown.err;
    EXPECT_NE(shown.out.find("gb/BM_Range/8:\n"), std::string::npos) << shown.out;
    EXPECT_TRUE(std::regex_search(shown.out, std::regex("\n +gbench +BM_Range/64 +suite entry")))
        << shown.out;
}

TEST_F(GbenchE2E, CountsAreCallgrindsOwn) {
    const auto raw = scratch("gbench-raw");
    const json doc =
        run_json({"--keep-raw", raw.string(), "--gbench", gbench(), "--filter", "^BM_Loop/1000$"});
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    // The last dump before FinishKeepRunning holds the last repetition's loop (one iteration).
    fs::path last;
    std::size_t last_part = 0;
    for (const auto& entry : fs::directory_iterator(raw)) {
        const std::string text = util::read_file(entry.path());
        if (text.find("Trigger: --dump-before=benchmark::State::FinishKeepRunning") ==
            std::string::npos) {
            continue;
        }
        const std::size_t part = std::stoul(text.substr(text.find("\npart: ") + 7));
        if (part > last_part) last_part = part, last = entry.path();
    }
    ASSERT_FALSE(last.empty());
    const auto events = doc["benchmarks"][0]["events"];
    for (const auto& [name, count] : callgrind_totals_by_hand(last)) {
        EXPECT_EQ(events[name].get<std::uint64_t>(), count) << name;
    }
}

// One iteration per repetition: --benchmark_min_time=0 on 1.7, =1x on 1.8 and later (chosen
// from the binary's --help). Valgrind's log names the command it ran.
TEST_F(GbenchE2E, OneIterationWithTheFlagOfItsVersion) {
    const auto raw = scratch("gbench-min-time");
    const json doc =
        run_json({"--keep-raw", raw.string(), "--gbench", gbench(), "--filter", "^BM_Loop/1000$"});
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    EXPECT_EQ(doc["benchmarks"][0]["gbench"]["iterations"], 1);
    std::string command;
    for (const auto& entry : fs::directory_iterator(raw)) {
        if (entry.path().extension() != ".log") continue;
        const std::string text = util::read_file(entry.path());
        const auto at = text.find("Command: ");
        if (at != std::string::npos) command = text.substr(at, text.find('\n', at) - at);
    }
    const std::string flag =
        gbench_at_least_1_8() ? "--benchmark_min_time=1x " : "--benchmark_min_time=0 ";
    EXPECT_NE(command.find(flag), std::string::npos) << gbench_version() << ": " << command;
}

}  // namespace cgbench::e2e
