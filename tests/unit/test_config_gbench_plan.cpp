// Planning Google Benchmark targets: --gbench and [[gbench]] into one spec per benchmark,
// with a fake lister (nothing runs).

#include <gtest/gtest.h>

#include <fstream>

#include "base/errors.hpp"
#include "config/gbench_plan.hpp"
#include "config/run_options.hpp"

namespace cgbench::config {

namespace {

namespace fs = std::filesystem;

// Lists "BM_a/1", "BM_a/2" and "BM_b" for every target, recording the filters it was given.
struct FakeLister {
    std::vector<std::string> filters;
    runner::GbenchListing operator()(const runner::BenchmarkSpec& spec) {
        filters.push_back(spec.gbench->filter);
        return {{"BM_a/1", "BM_a/2", "BM_b"}, "0"};
    }
};

}  // namespace

TEST(GbenchPlan, SingleBinary) {
    RunInput in;
    in.gbench = "./build/bench_x";
    in.command = {"--extra"};
    in.filter = "BM_a";
    auto plan = plan_run(in, {});
    ASSERT_EQ(plan.request.benchmarks.size(), 1u);
    EXPECT_EQ(plan.request.benchmarks[0].name, "bench_x");
    EXPECT_EQ(plan.request.benchmarks[0].command,
              (std::vector<std::string>{"./build/bench_x", "--extra"}));
    FakeLister lister;
    expand_gbench(plan, std::ref(lister));
    EXPECT_EQ(lister.filters, (std::vector<std::string>{"BM_a"}));  // the binary filters
    ASSERT_EQ(plan.request.benchmarks.size(), 3u);
    ASSERT_EQ(plan.benchmark_settings.size(), 3u);
    EXPECT_EQ(plan.request.benchmarks[1].name, "bench_x/BM_a/2");
    EXPECT_EQ(plan.request.benchmarks[1].gbench->benchmark, "BM_a/2");
    EXPECT_EQ(plan.benchmark_settings[1].gbench.value, "BM_a/2");
    EXPECT_EQ(plan.suite_size, 3u);
}

TEST(GbenchPlan, OptionsThatDoNotFit) {
    RunInput in;
    in.gbench = "./bench_x";
    in.regions = true;
    EXPECT_THROW(plan_run(in, {}), UsageError);
    in.regions = false;
    in.suite = "cgbench.toml";
    EXPECT_THROW(plan_run(in, {}), UsageError);
}

TEST(GbenchPlan, SuiteFilterSelectsListedNames) {
    const fs::path dir = fs::path(::testing::TempDir()) / "cgbench-gbench-plan";
    fs::create_directories(dir);
    std::ofstream(dir / "cgbench.toml") << "[[bench]]\nname = \"plain\"\ncommand = [\"./p\"]\n"
                                           "[[gbench]]\nname = \"g\"\nbinary = \"./b\"\n";
    RunInput in;
    in.suite = (dir / "cgbench.toml").string();
    in.filter = "/BM_a/";
    auto plan = plan_run(in, {});
    FakeLister lister;
    expand_gbench(plan, std::ref(lister));
    ASSERT_EQ(plan.request.benchmarks.size(), 2u);
    EXPECT_EQ(plan.request.benchmarks[0].name, "g/BM_a/1");
    EXPECT_EQ(plan.request.benchmarks[1].name, "g/BM_a/2");
    in.filter = "nothing";
    plan = plan_run(in, {});
    EXPECT_THROW(expand_gbench(plan, std::ref(lister)), UsageError);
}

}  // namespace cgbench::config
