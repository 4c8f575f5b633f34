// Planning a run: the layers (built-in < suite [defaults] < entry < environment < command line),
// suite-relative paths, --filter, sharding, and the single-program form unchanged.

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "base/errors.hpp"
#include "config/run_options.hpp"

namespace cgbench::config {

namespace {

namespace fs = std::filesystem;

constexpr const char* kSuite = R"([defaults]
geometry = "LL=4194304,16,64"
timeout = 600
threshold = "1%"
env = { MODE = "suite" }

[[bench]]
name = "a"
command = ["./bin/a", "input.txt"]
cwd = "data"
stdin = "in/a.txt"
timeout = 30
env = ["LEVEL=3"]

[[bench]]
name = "b"
command = ["b-on-path"]
threshold = "ir=0.5%"

[[bench]]
name = "c/x"
command = ["/abs/c"]
)";

// A directory holding the suite above, as <tmp>/cgbench-plan-<test>/proj/cgbench.toml: one
// per test, since ctest runs the tests of this file in parallel processes.
fs::path suite_file() {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const fs::path dir = fs::path(::testing::TempDir()) / ("cgbench-plan-" + test) / "proj";
    fs::create_directories(dir);
    std::ofstream(dir / "cgbench.toml") << kSuite;
    return dir / "cgbench.toml";
}

RunInput suite_input() {
    RunInput in;
    in.suite = suite_file().string();
    return in;
}

std::string error_of(const RunInput& in, const exec::EnvMap& env = {}) {
    try {
        plan_run(in, env);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(RunOptions, SingleProgram) {
    RunInput in;
    in.command = {"./prog", "--size", "3"};
    in.env = {"A=1"};
    in.timeout = "5";
    const auto plan = plan_run(in, {});
    ASSERT_EQ(plan.request.benchmarks.size(), 1u);
    const auto& spec = plan.request.benchmarks[0];
    EXPECT_EQ(spec.name, "prog --size 3");
    EXPECT_TRUE(spec.cwd.empty());
    EXPECT_TRUE(spec.base_dir.empty());
    EXPECT_FALSE(spec.position);
    EXPECT_EQ(spec.timeout_seconds, 5.0);
    EXPECT_EQ(spec.env.size(), 1u);
    EXPECT_TRUE(plan.suite.empty());
    EXPECT_FALSE(plan.shard);
    EXPECT_EQ(plan.request.jobs,
              static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
    EXPECT_EQ(plan.settings.jobs.source, Source::Default);
}

TEST(RunOptions, SuiteEntriesInFileOrderWithPathsRelativeToTheSuite) {
    const auto plan = plan_run(suite_input(), {});
    const fs::path dir = suite_file().parent_path();
    ASSERT_EQ(plan.request.benchmarks.size(), 3u);
    const auto& a = plan.request.benchmarks[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.command, (std::vector<std::string>{"./bin/a", "input.txt"}));  // as written
    EXPECT_EQ(a.base_dir, dir);      // ./bin/a is found next to the suite...
    EXPECT_EQ(a.cwd, dir / "data");  // ...and runs in its cwd
    EXPECT_EQ(a.stdin_path, (dir / "in/a.txt").string());
    EXPECT_EQ(a.position, 0u);
    const auto& b = plan.request.benchmarks[1];
    EXPECT_EQ(b.cwd, dir);  // default: the suite's directory
    EXPECT_TRUE(b.stdin_path.empty());
    EXPECT_EQ(plan.request.benchmarks[2].position, 2u);
    EXPECT_EQ(plan.suite, suite_file());
    EXPECT_EQ(plan.suite_size, 3u);
    EXPECT_EQ(plan.suite_entries, 3u);
}

TEST(RunOptions, LayersInTheDocumentedOrder) {
    auto in = suite_input();
    // Suite [defaults] and entries.
    auto plan = plan_run(in, {});
    EXPECT_EQ(plan.request.settings.geometry.ll.size, 4194304u);
    EXPECT_EQ(plan.settings.geometry.source, Source::SuiteDefaults);
    EXPECT_NE(plan.settings.geometry.origin.find("cgbench.toml:2"), std::string::npos);
    EXPECT_EQ(plan.request.benchmarks[0].timeout_seconds, 30.0);  // entry beats [defaults]
    EXPECT_EQ(plan.benchmark_settings[0].timeout.source, Source::SuiteEntry);
    EXPECT_EQ(plan.request.benchmarks[1].timeout_seconds, 600.0);
    EXPECT_EQ(plan.benchmark_settings[1].timeout.source, Source::SuiteDefaults);
    EXPECT_EQ(plan.request.benchmarks[0].threshold, "1%");
    EXPECT_EQ(plan.request.benchmarks[1].threshold, "ir=0.5%");
    EXPECT_EQ(plan.request.benchmarks[2].timeout_seconds, 600.0);
    // The environment beats the suite...
    const exec::EnvMap env = {
        {"CGBENCH_GEOMETRY", "ci-default"}, {"CGBENCH_TIMEOUT", "20"}, {"CGBENCH_THRESHOLD", "3%"}};
    plan = plan_run(in, env);
    EXPECT_EQ(plan.request.settings.geometry.ll.size, 8388608u);
    EXPECT_EQ(plan.settings.geometry.origin, "CGBENCH_GEOMETRY");
    EXPECT_EQ(plan.request.benchmarks[0].timeout_seconds, 20.0);
    EXPECT_EQ(plan.benchmark_settings[0].timeout.origin, "CGBENCH_TIMEOUT");
    EXPECT_EQ(plan.request.benchmarks[1].threshold, "3%");
    // ...and the command line beats the environment.
    in.geometry = "LL=2097152,16,64";
    in.timeout = "10";
    in.threshold = "cost=5%";
    plan = plan_run(in, env);
    EXPECT_EQ(plan.request.settings.geometry.ll.size, 2097152u);
    EXPECT_EQ(plan.settings.geometry.source, Source::CommandLine);
    EXPECT_EQ(plan.request.benchmarks[0].timeout_seconds, 10.0);
    EXPECT_EQ(plan.request.benchmarks[2].threshold, "cost=5%");
    EXPECT_EQ(plan.benchmark_settings[2].threshold.origin, "--threshold");
}

TEST(RunOptions, EnvironmentRequestsAccumulateAcrossLayers) {
    auto in = suite_input();
    in.env = {"MODE=cli"};
    const auto plan = plan_run(in, {});
    const auto& settings = plan.benchmark_settings[0].env;
    ASSERT_EQ(settings.size(), 3u);
    EXPECT_EQ(settings[0].value, "MODE=suite");
    EXPECT_EQ(settings[0].source, Source::SuiteDefaults);
    EXPECT_EQ(settings[1].value, "LEVEL=3");
    EXPECT_EQ(settings[1].source, Source::SuiteEntry);
    EXPECT_EQ(settings[2].source, Source::CommandLine);
    // Later requests win for the same name (build_environment applies them in order).
    const auto& requests = plan.request.benchmarks[0].env;
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[2].value, "cli");
    EXPECT_EQ(plan.request.benchmarks[1].env.size(), 2u);
}

TEST(RunOptions, FilterSelectsByRegexSearch) {
    auto in = suite_input();
    in.filter = "^[ab]$";
    auto plan = plan_run(in, {});
    ASSERT_EQ(plan.request.benchmarks.size(), 2u);
    EXPECT_EQ(plan.request.benchmarks[1].name, "b");
    EXPECT_EQ(plan.request.benchmarks[1].position, 1u);
    in.filter = "/";
    plan = plan_run(in, {});
    ASSERT_EQ(plan.request.benchmarks.size(), 1u);
    EXPECT_EQ(plan.request.benchmarks[0].position, 2u);  // its place in the suite file
    in.filter = "(";
    EXPECT_NE(error_of(in).find("invalid --filter '('"), std::string::npos);
    in.filter = "zzz";
    EXPECT_NE(error_of(in).find("no benchmark in"), std::string::npos);
}

TEST(RunOptions, ShardFromTheCommandLineOrGitLab) {
    auto in = suite_input();
    const exec::EnvMap ci = {{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "3"}};
    auto plan = plan_run(in, ci);
    ASSERT_TRUE(plan.shard);
    EXPECT_EQ(plan.shard->text(), "2/3");
    EXPECT_EQ(plan.settings.shard.origin, "CI_NODE_INDEX/CI_NODE_TOTAL");
    in.shard = "1/2";
    plan = plan_run(in, ci);
    EXPECT_EQ(plan.shard->text(), "1/2");
    apply_shard(plan, std::nullopt);
    // Sorted names a, b, c/x: shard 1 of 2 gets a and c/x, in suite order.
    ASSERT_EQ(plan.request.benchmarks.size(), 2u);
    EXPECT_EQ(plan.request.benchmarks[0].name, "a");
    EXPECT_EQ(plan.request.benchmarks[1].name, "c/x");
    EXPECT_EQ(plan.benchmark_settings.size(), 2u);
    EXPECT_EQ(plan.suite_size, 3u);
    in.shard = "3/2";
    EXPECT_NE(error_of(in).find("invalid shard '3/2' (from --shard)"), std::string::npos);
    EXPECT_NE(error_of(suite_input(), {{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "3"}})
                  .find("CI_NODE_INDEX/CI_NODE_TOTAL"),
              std::string::npos);
}

TEST(RunOptions, SuiteOnlyAndProgramOnlyOptions) {
    RunInput single;
    single.command = {"./prog"};
    EXPECT_FALSE(plan_run(single, {{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "3"}}).shard);
    single.shard = "1/2";
    EXPECT_NE(error_of(single).find("--shard splits a suite"), std::string::npos);
    single.shard.reset();
    single.filter = "x";
    EXPECT_NE(error_of(single).find("--filter selects benchmarks of a suite"), std::string::npos);
    auto in = suite_input();
    in.command = {"./prog"};
    EXPECT_NE(error_of(in).find("either a program or --suite"), std::string::npos);
    for (auto set : {+[](RunInput& i) { i.name = "x"; }, +[](RunInput& i) { i.cwd = "/"; },
                     +[](RunInput& i) { i.stdin_path = "/dev/null"; }}) {
        in = suite_input();
        set(in);
        EXPECT_NE(error_of(in).find("applies to a single program"), std::string::npos);
    }
}

TEST(RunOptions, BadValuesNameTheirSource) {
    auto in = suite_input();
    EXPECT_NE(error_of(in, {{"CGBENCH_WEIGHTS", "heavy"}}).find("(from CGBENCH_WEIGHTS)"),
              std::string::npos);
    EXPECT_NE(
        error_of(in, {{"CGBENCH_JOBS", "0"}}).find("invalid job count '0' (from CGBENCH_JOBS)"),
        std::string::npos);
    EXPECT_NE(error_of(in, {{"CGBENCH_THRESHOLD", "lots"}}).find("(from CGBENCH_THRESHOLD)"),
              std::string::npos);
    in.jobs = "two";
    EXPECT_NE(error_of(in).find("(from -j)"), std::string::npos);
    in.jobs = "2";
    EXPECT_EQ(plan_run(in, {{"CGBENCH_JOBS", "8"}}).request.jobs, 2);
}

TEST(RunOptions, KeepRawNamesMustNotCollide) {
    const fs::path dir = fs::path(::testing::TempDir()) / "cgbench-plan-raw";
    fs::create_directories(dir);
    std::ofstream(dir / "cgbench.toml") << "[[bench]]\nname = \"a/b\"\ncommand = [\"x\"]\n"
                                           "[[bench]]\nname = \"a_b\"\ncommand = [\"x\"]\n";
    RunInput in;
    in.suite = (dir / "cgbench.toml").string();
    EXPECT_EQ(error_of(in), "no error");
    in.keep_raw = (dir / "raw").string();
    EXPECT_NE(error_of(in).find("would share --keep-raw file names"), std::string::npos);
}

TEST(RunOptions, DiscoversTheSuiteInTheCurrentDirectory) {
    const auto before = fs::current_path();
    fs::current_path(suite_file().parent_path());
    const auto plan = plan_run(RunInput{}, {});
    fs::current_path(before);
    EXPECT_EQ(plan.suite, fs::path("cgbench.toml"));
    EXPECT_EQ(plan.request.benchmarks.size(), 3u);
    EXPECT_NE(error_of(RunInput{}).find("no program given"), std::string::npos);
}

}  // namespace cgbench::config
