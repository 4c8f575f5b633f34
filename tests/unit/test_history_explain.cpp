// What moved at a step: instructions, or only the cache terms; and which functions.

#include <gtest/gtest.h>

#include "history/environment.hpp"
#include "history/explain.hpp"
#include "run_fixtures.hpp"

namespace cgbench::history {

using testing_fixtures::bench;

TEST(HistoryExplain, InstructionsMoved) {
    auto before = bench("b", 1'000'000);
    auto after = bench("b", 1'100'000);
    before.functions = {{"f.c", "hot", {}, 600'000}, {"", "(other)", {}, before.cost - 600'000}};
    after.functions = {{"f.c", "hot", {}, 700'000}, {"", "(other)", {}, after.cost - 700'000}};
    const auto e = explain_step(before, after);
    EXPECT_TRUE(e.instructions);
    ASSERT_FALSE(e.moved.empty());
    EXPECT_EQ(e.moved.front().metric, metrics::Metric::event(metrics::Event::Ir));
    EXPECT_EQ(e.moved.front().after - e.moved.front().before, 100'000u);
    EXPECT_EQ(summarize(e), "Ir +10.00%");
    ASSERT_FALSE(e.functions.empty());
    EXPECT_EQ(e.functions.front().name, "(other)") << "the larger delta first";
    EXPECT_EQ(e.functions.back().name, "hot");
    EXPECT_EQ(e.functions.back().delta, 100'000);
}

TEST(HistoryExplain, OnlyTheCacheTermsMoved) {
    auto before = bench("b", 1'000'000);
    auto after = before;
    after.events.set(metrics::Event::DLmr, before.events.get(metrics::Event::DLmr) + 500);
    after.derived = metrics::derive(after.events);
    after.cost = metrics::cost(after.events, after.weights);
    const auto e = explain_step(before, after);
    EXPECT_FALSE(e.instructions);
    EXPECT_EQ(summarize(e), "cache only: ram_hits +500");
    EXPECT_TRUE(explain_step(before, before).moved.empty());
    EXPECT_EQ(summarize(explain_step(before, before)), "no event recorded moved");
}

TEST(HistoryEnvironment, NamesWhatChanged) {
    auto a = testing_fixtures::run("r", {}).fingerprint;
    auto b = a;
    EXPECT_TRUE(same_environment(a, b));
    b.glibc_version = "2.37";
    b.cgbench_version = "0.2.0";
    b.loader_cache = "00000000000000bb";
    const auto changes = environment_changes(a, b);
    ASSERT_EQ(changes.size(), 3u);
    EXPECT_EQ(changes[0], "glibc: 2.36 vs 2.37");
    EXPECT_EQ(changes[1], "cgbench: 0.1.0 vs 0.2.0");
    EXPECT_EQ(changes[2], "loader cache: unknown vs 00000000000000bb");
    // Compilers: only a change between two recorded lists counts.
    b = a;
    b.compilers = {"GCC: (Debian 12.2.0-14) 12.2.0"};
    EXPECT_TRUE(same_environment(a, b)) << "recorded on one side only";
    a.compilers = {"Debian clang version 14.0.6"};
    EXPECT_EQ(environment_changes(a, b),
              std::vector<std::string>({"compiler: Debian clang version 14.0.6 vs GCC: (Debian "
                                        "12.2.0-14) 12.2.0"}));
    EXPECT_NE(describe(b).find("valgrind 3.19.0 · glibc 2.36 · geometry ci-default"),
              std::string::npos)
        << describe(b);
    EXPECT_NE(describe(b).find("GCC: (Debian 12.2.0-14) 12.2.0"), std::string::npos);
}

}  // namespace cgbench::history
