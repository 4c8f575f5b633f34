// The measurement strategies (runner/measurement.hpp, runner/call_stacks.hpp) against a
// launcher of the test's own: what each asks the Launcher for, and how it turns the profiles
// it gets back (cgbench's profile model) into results. The Valgrind launcher is exercised by
// test_runner_measurer*.cpp with a fake process runner, and by tests/e2e with the real one.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/call_stacks.hpp"
#include "runner/measurement.hpp"
#include "runner/regions.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::runner {

namespace {

metrics::EventCounts ir(std::uint64_t n) {
    metrics::EventCounts c;
    c.set(metrics::Event::Ir, n);
    return c;
}

// Runs nothing: every launch ends with `status`, and the run's profile is `whole` (its dump
// parts `parts`). Records what the strategy asked.
class ScriptedLauncher final : public Launcher {
  public:
    MeasureSettings measure_settings;
    BenchStatus status = BenchStatus::Ok;
    metrics::Profile whole;
    std::vector<metrics::Profile> parts;

    std::vector<BenchmarkSpec> launched;
    std::vector<LaunchRequest> requests;
    std::vector<int> attempts;
    mutable std::vector<metrics::ProfileRequest> read;
    mutable int kept = 0;

    const MeasureSettings& settings() const override { return measure_settings; }

    Run launch(const BenchmarkSpec& spec, const LaunchRequest& request, BenchmarkResult& result,
               int attempt) override {
        launched.push_back(spec);
        requests.push_back(request);
        attempts.push_back(attempt);
        result.status = status;
        if (status != BenchStatus::Ok) result.error = "exited with status 1";
        Run run;
        run.root_pid = 7;
        return run;
    }
    metrics::Profile profile(const Run&, metrics::ProfileRequest options) const override {
        read.push_back(options);
        return whole;
    }
    std::vector<metrics::Profile> profile_parts(
        const Run&, const metrics::ProfileRequest& options) const override {
        read.push_back(options);
        return parts;
    }
    valgrind::ProcessLog log(const Run&) const override { return {}; }
    std::vector<TracedProcess> processes(const Run&) const override {
        TracedProcess p;
        p.pid = 7;
        p.profile = "cachegrind.out.7";  // never opened: process_profile() plays `whole`
        p.log.threads = 1;
        return {p};
    }
    std::optional<metrics::Profile> process_profile(const Run&, const TracedProcess&,
                                                    metrics::ProfileRequest options,
                                                    bool) const override {
        read.push_back(options);
        return whole;
    }
    void keep_files(const BenchmarkSpec&, int, const Run&, BenchmarkResult&,
                    const std::vector<std::filesystem::path>&) const override {
        ++kept;
    }
};

BenchmarkSpec spec_named(const std::string& name) {
    BenchmarkSpec spec;
    spec.name = name;
    spec.command = {"/bin/prog", "1"};
    spec.warmup = 3;
    return spec;
}

// main (self 10) calls work (self 40): 50 Ir in all.
metrics::Profile small_call_graph() {
    metrics::Profile p;
    p.tool = "callgrind";
    p.totals = ir(50);
    p.functions = {{"m.c", "main", ir(10)}, {"m.c", "work", ir(40)}};
    p.calls = {{"m.c", "main", "m.c", "work", ir(40)}};
    return p;
}

}  // namespace

TEST(Strategies, CallGraphRunsOnceUnderCallgrindWithoutWarmUpAndBuildsTheTree) {
    ScriptedLauncher launcher;
    launcher.measure_settings.weights = metrics::parse_weights("ir");
    launcher.whole = small_call_graph();
    const auto out = CallGraph().measure_tree(launcher, spec_named("prog"));

    ASSERT_EQ(launcher.launched.size(), 1u);
    EXPECT_EQ(launcher.launched[0].warmup, 0);
    EXPECT_EQ(launcher.attempts[0], 0);
    EXPECT_EQ(launcher.requests[0].options.tool, valgrind::Tool::Callgrind);
    EXPECT_TRUE(launcher.requests[0].options.collect_at_start);
    ASSERT_EQ(launcher.read.size(), 1u);
    EXPECT_TRUE(launcher.read[0].collect_calls);
    EXPECT_TRUE(launcher.read[0].collect_functions);

    EXPECT_EQ(out.result.status, BenchStatus::Ok);
    EXPECT_EQ(out.result.tool, "callgrind");
    EXPECT_EQ(out.result.events, launcher.whole.totals);
    EXPECT_EQ(out.result.cost, 50u);
    EXPECT_EQ(out.tree.total(), out.result.cost);
    const auto main = out.tree.find(CallTree::kRoot, "main");
    ASSERT_NE(main, CallTree::kNone);
    EXPECT_NE(out.tree.find(main, "work"), CallTree::kNone);
    // The strategy's generic face gives the same result.
    const auto results = CallGraph().measure(launcher, spec_named("prog"), 0);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].events, out.result.events);
}

TEST(Strategies, CallGraphOfAFailedRunReadsNoProfile) {
    ScriptedLauncher launcher;
    launcher.status = BenchStatus::Failed;
    const auto out = CallGraph().measure_tree(launcher, spec_named("prog"));
    EXPECT_EQ(out.result.status, BenchStatus::Failed);
    EXPECT_EQ(out.result.error, "exited with status 1");
    EXPECT_TRUE(launcher.read.empty());
    EXPECT_EQ(out.tree.size(), 1u);  // the root alone
    EXPECT_EQ(out.tree.total(), 0u);
}

// The regions come from the parts the launcher gives, as regions.hpp attributes them (parts of
// a real Callgrind run, tests/data/callgrind).
TEST(Strategies, CallgrindRegionsScoreEachRegionOfTheLaunchersParts) {
    ScriptedLauncher launcher;
    launcher.parts = valgrind::parse_callgrind_parts(
        std::string(CGBENCH_TEST_DATA) + "/callgrind/regions-nested.out",
        {.collect_functions = true});
    const auto expected = attribute_regions(launcher.parts);
    ASSERT_TRUE(expected.error.empty());
    ASSERT_EQ(expected.regions.size(), 2u);

    const auto results = CallgrindRegions().measure(launcher, spec_named("w"), 1);
    ASSERT_EQ(launcher.attempts, std::vector<int>{1});
    EXPECT_EQ(launcher.requests[0].options.tool, valgrind::Tool::Callgrind);
    EXPECT_EQ(launcher.kept, 1);
    ASSERT_EQ(results.size(), expected.regions.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& region = expected.regions[i];
        EXPECT_EQ(results[i].name, "w/" + region.name);
        EXPECT_EQ(results[i].status, BenchStatus::Ok);
        EXPECT_EQ(results[i].events, region.profile.totals);
        EXPECT_EQ(results[i].cost,
                  metrics::cost(region.profile.totals, launcher.measure_settings.weights));
        EXPECT_FALSE(results[i].functions.empty());
        EXPECT_EQ(results[i].threads, 1);
    }
}

TEST(Strategies, CallgrindRegionsWithoutMarkersGiveOneFailedResult) {
    ScriptedLauncher launcher;
    launcher.parts = {small_call_graph()};  // one dump at the end: no region marker
    const auto results = CallgrindRegions().measure(launcher, spec_named("w"), 0);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].name, "w");
    EXPECT_EQ(results[0].status, BenchStatus::Failed);
    EXPECT_NE(results[0].error.find("reached no region"), std::string::npos) << results[0].error;
}

// A whole program sums what the launcher reads of each process it traced.
TEST(Strategies, WholeProgramScoresTheProcessesProfiles) {
    ScriptedLauncher launcher;
    launcher.measure_settings.weights = metrics::parse_weights("ir");
    launcher.whole = small_call_graph();
    const auto results = WholeProgram().measure(launcher, spec_named("p"), 0);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(launcher.requests[0].options.tool, valgrind::Tool::Cachegrind);
    EXPECT_TRUE(launcher.requests[0].extra_args.empty());
    EXPECT_EQ(results[0].status, BenchStatus::Ok);
    EXPECT_EQ(results[0].events, launcher.whole.totals);
    EXPECT_EQ(results[0].cost, 50u);
    ASSERT_FALSE(results[0].functions.empty());
    EXPECT_EQ(results[0].functions.front().name, "work");
    EXPECT_EQ(launcher.kept, 1);
}

}  // namespace cgbench::runner
