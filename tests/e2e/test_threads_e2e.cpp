// Multi-threaded programs: Valgrind runs their threads in an order that differs from run to
// run, so their counts are not repeatable. cgbench counts the threads from Valgrind's log,
// marks the result (JSON "threads") and says so in every format and in `compare`.

#include <gtest/gtest.h>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

constexpr const char* kWarning = "ran 5 threads";  // main + the 4 it starts

}  // namespace

TEST(ThreadsE2E, AMultiThreadedRunIsMarkedInEveryFormat) {
    for (const std::string format : {"console", "json", "markdown", "junit"}) {
        const auto r = cgbench({"run", "--no-db", "--format", format, "--", program("threads")});
        ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
        const std::string shown = r.out + r.err;
        EXPECT_NE(shown.find(kWarning), std::string::npos) << format << ":\n" << shown;
        EXPECT_NE(shown.find("not repeatable"), std::string::npos) << format << ":\n" << shown;
        if (format == "json") {
            const auto doc = nlohmann::json::parse(r.out);
            EXPECT_EQ(doc["benchmarks"][0]["threads"], 5) << r.out;
        }
    }
}

TEST(ThreadsE2E, ASingleThreadedRunIsNotMarked) {
    // One thread started besides main is already two.
    const auto r = cgbench({"run", "--no-db", "--format", "json", "--", program("threads"), "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["benchmarks"][0]["threads"], 2) << r.out;
    const auto w = cgbench({"run", "--no-db", "--format", "json", "--", program("workload"), "100"});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const auto one = nlohmann::json::parse(w.out)["benchmarks"][0];
    EXPECT_FALSE(one.contains("threads")) << w.out;
    EXPECT_FALSE(one.contains("warnings")) << w.out;
}

TEST(ThreadsE2E, CompareSaysWhenItGatesOnAThreadedResult) {
    const auto dir = scratch("threads-compare");
    for (const std::string side : {"base", "head"}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--name", "t", "--out",
                                (dir / (side + ".json")).string(), "--", program("threads")});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    for (const std::string format : {"console", "json", "markdown", "junit"}) {
        const auto c = cgbench({"compare", "--format", format, "--threshold", "50%",
                                (dir / "base.json").string(), (dir / "head.json").string()});
        EXPECT_EQ(c.exit_code, 0) << c.err;
        const std::string shown = c.out + c.err;
        EXPECT_NE(shown.find("t ran 5 threads"), std::string::npos) << format << ":\n" << shown;
    }
}

}  // namespace cgbench::e2e
