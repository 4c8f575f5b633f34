// The single-run repeatability rules (runner/repeatability.hpp) on the functions real profiles
// hold (names and instruction counts as Cachegrind wrote them with glibc 2.36, measured for
// this file: Lua 5.4, Python 3.11, bash, git, a Rust HashMap, a timed C loop).

#include <gtest/gtest.h>

#include "runner/repeatability.hpp"

namespace cgbench::runner {

namespace {

metrics::FunctionCost fn(std::string name, std::uint64_t ir) {
    metrics::FunctionCost f{"", std::move(name), {}};
    f.counts.set(metrics::Event::Ir, ir);
    return f;
}

ProcessEvidence process(std::vector<metrics::FunctionCost> watched, std::string command = "p") {
    return {std::move(command), std::move(watched), std::nullopt, 0, 0};
}

std::vector<std::string> warnings(std::vector<metrics::FunctionCost> watched,
                                  exec::FixedInputs fixed = {}) {
    return repeatability_warnings({process(std::move(watched))}, fixed);
}

bool any_has(const std::vector<std::string>& ws, const std::string& text) {
    for (const auto& w : ws)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(Repeatability, TheFunctionsTheRulesReadAreWatched) {
    for (const char* name : {"clock_gettime@@GLIBC_2.17", "time_syscall", "getrandom", "getentropy",
                             "std::sys::random::linux::hashmap_random_keys", "lua_newstate",
                             "Py_BytesMain", "ruby_init", "runtime.schedinit"}) {
        EXPECT_TRUE(repeatability_function(name)) << name;
    }
    for (const char* name : {"main", "time", "gettimeofday", "malloc", "__read_nocancel"})
        EXPECT_FALSE(repeatability_function(name)) << name;
}

TEST(Repeatability, StartUpReadsOfCommonProgramsAreQuiet) {
    // bash: three gettimeofday; git: one gettimeofday and one clock_gettime; every process:
    // the one getrandom of glibc's malloc start-up.
    EXPECT_TRUE(warnings({fn("__gettimeofday_syscall", 21), fn("getrandom", 7)}).empty());
    EXPECT_TRUE(warnings({fn("__gettimeofday_syscall", 7), fn("clock_gettime@@GLIBC_2.17", 10),
                          fn("getrandom", 7)})
                    .empty());
    // Python reads the clock hundreds of times for its own locks, and time() once.
    EXPECT_TRUE(warnings({fn("Py_BytesMain", 11), fn("clock_gettime@@GLIBC_2.17", 22390),
                          fn("time_syscall", 5), fn("getrandom", 7)})
                    .empty());
    // A program whose first malloc comes after it started a thread: the same one call, on
    // getrandom's cancellable path (tests/programs/threads). A second call is still named.
    auto threaded = process({fn("getrandom", 21)});
    threaded.threads = 5;
    EXPECT_TRUE(repeatability_warnings({threaded}, {}).empty());
    threaded.watched = {fn("getrandom", 28)};
    EXPECT_TRUE(any_has(repeatability_warnings({threaded}, {}), "reads entropy (getrandom)"));
    EXPECT_TRUE(any_has(warnings({fn("getrandom", 21)}), "reads entropy (getrandom)"));
    // Perl: time() for $^T.
    EXPECT_TRUE(warnings({fn("perl_construct", 108962), fn("time_syscall", 5)}).empty());
}

// glibc 2.43 (Debian testing), as Cachegrind 3.27 wrote it: malloc no longer calls getrandom,
// start-up only initialises the vDSO state, and the program's one call goes through the vDSO.
TEST(Repeatability, GetrandomThroughTheVdsoIsNamedAndItsStartUpIsQuiet) {
    EXPECT_TRUE(repeatability_function("getrandom_vdso"));
    EXPECT_FALSE(repeatability_function("__getrandom_early_init"));
    EXPECT_TRUE(warnings({fn("__getrandom_early_init", 15)}).empty());
    EXPECT_TRUE(any_has(warnings({fn("getrandom", 2), fn("getrandom_vdso", 41)}),
                        "reads entropy (getrandom)"));
}

TEST(Repeatability, LuaSeedsFromTheClock) {
    const auto w = warnings({fn("lua_newstate", 200), fn("time_syscall", 10), fn("getrandom", 7)});
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("is Lua, which seeds its string hashes from the clock"), std::string::npos);
    EXPECT_NE(w[0].find("--fixed-clock"), std::string::npos);
    EXPECT_TRUE(
        warnings({fn("lua_newstate", 200), fn("time_syscall", 10)}, {.clock = true}).empty());
}

TEST(Repeatability, TimeInAnyOtherProgramIsASeed) {
    EXPECT_TRUE(any_has(warnings({fn("time_syscall", 5)}), "srand(time(NULL))"));
}

TEST(Repeatability, ATimedLoopReadsTheClockOften) {
    const auto w = warnings({fn("clock_gettime@@GLIBC_2.17", 13130)});
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("reads the clock about 1,313 times"), std::string::npos) << w[0];
    EXPECT_TRUE(warnings({fn("clock_gettime@@GLIBC_2.17", 13130)}, {.clock = true}).empty());
}

TEST(Repeatability, EntropyBeyondMallocsOwnIsNamed) {
    const auto rust =
        warnings({fn("getrandom", 14), fn("std::sys::random::linux::hashmap_random_keys", 14)});
    ASSERT_EQ(rust.size(), 1u);
    EXPECT_NE(rust[0].find("Rust's HashMap seeds itself from it"), std::string::npos) << rust[0];
    EXPECT_TRUE(any_has(warnings({fn("getrandom", 14)}), "reads entropy (getrandom)"));
    EXPECT_TRUE(any_has(warnings({fn("Py_BytesMain", 1), fn("getrandom", 21)}), "random.seed()"));
    EXPECT_TRUE(any_has(warnings({fn("getentropy", 22)}), "reads entropy (getentropy)"));
    EXPECT_TRUE(warnings({fn("getrandom", 14)}, {.random = true}).empty());
}

TEST(Repeatability, RuntimesThatSeedThemselvesAreNamed) {
    EXPECT_TRUE(any_has(warnings({fn("ruby_init", 100)}), "is Ruby"));
    // Ruby seeds its hashes from getentropy, which --fixed-random pins.
    EXPECT_FALSE(any_has(warnings({fn("ruby_init", 100)}, {.random = true}), "is Ruby"));
    EXPECT_TRUE(any_has(warnings({fn("runtime.schedinit", 100)}), "is a Go program"));
    EXPECT_TRUE(any_has(
        warnings({fn("v8::internal::Isolate::Init(v8::internal::SnapshotData*)", 1)}), "runs V8"));
}

TEST(Repeatability, ProcessesRunningAtTheSameTimeAreAPipeline) {
    constexpr std::int64_t ms = 1'000'000;
    auto shell = process({}, "bash -c tr | sort");
    shell.started_ns = 1000 * ms;
    shell.ended_ns = 3000 * ms;
    auto tr = process({}, "tr a-z A-Z");
    tr.parent = 0;
    tr.started_ns = 1100 * ms;
    tr.ended_ns = 2000 * ms;
    auto sort = tr;
    sort.command = "sort";
    sort.watched = {fn("read", 21)};
    sort.started_ns = 1150 * ms;
    sort.ended_ns = 2500 * ms;
    const auto w = repeatability_warnings({shell, tr, sort}, {});
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("'sort' read its input while 'tr a-z A-Z' ran at the same time"),
              std::string::npos)
        << w[0];
    // Workers that only compute beside each other (and write to their parent): no warning.
    auto quiet = sort;
    quiet.watched.clear();
    EXPECT_TRUE(repeatability_warnings({shell, tr, quiet}, {}).empty());
    // One after the other (a script), or a parent waiting for its child: no warning.
    sort.started_ns = 2000 * ms;
    EXPECT_TRUE(repeatability_warnings({shell, tr, sort}, {}).empty());
}

}  // namespace cgbench::runner
