// The comparison model: verdicts per metric and benchmark, the gate, fingerprint checks.

#include <gtest/gtest.h>

#include <algorithm>

#include "base/errors.hpp"
#include "compare/comparison.hpp"
#include "run_fixtures.hpp"

namespace cgbench::compare {

using namespace testing_fixtures;

namespace {

Comparison cmp(const RunResult& base, const RunResult& head, CompareOptions options = {}) {
    return compare_runs(base, side_of(base, "base"), head, side_of(head, "head"), options);
}

Verdict verdict_of(std::uint64_t base_cost, std::uint64_t head_cost) {
    const auto c =
        cmp(run("b", {bench("x", 1000, base_cost)}), run("h", {bench("x", 1000, head_cost)}));
    return c.benchmarks.at(0).verdict;
}

}  // namespace

TEST(Comparison, ARegressionNeedsBothThePercentageAndTheFloor) {
    EXPECT_EQ(verdict_of(1'000'000, 1'010'001), Verdict::Regression);  // +1.0001%, +10,001
    EXPECT_EQ(verdict_of(1'000'000, 1'010'000), Verdict::Changed) << "exactly +1% is allowed";
    EXPECT_EQ(verdict_of(50'000, 51'000), Verdict::Changed) << "+2% but only +1,000 units";
    EXPECT_EQ(verdict_of(50'000, 51'001), Verdict::Regression);
    EXPECT_EQ(verdict_of(1'000'000, 1'000'999), Verdict::Unchanged) << "below 0.1%";
    EXPECT_EQ(verdict_of(1'000'000, 1'001'000), Verdict::Changed) << "0.1% is reported";
    EXPECT_EQ(verdict_of(1'000'000, 980'000), Verdict::Improvement);
    EXPECT_EQ(verdict_of(0, 5000), Verdict::Regression) << "from nothing";
}

TEST(Comparison, MetricChangesCarryTheNumbers) {
    const auto c =
        cmp(run("b", {bench("x", 1000, 200'000)}), run("h", {bench("x", 1100, 210'000)}));
    const auto& b = c.benchmarks.at(0);
    const auto* cost = b.change(metrics::Metric::cost());
    ASSERT_NE(cost, nullptr);
    EXPECT_EQ(cost->delta(), 10'000);
    EXPECT_DOUBLE_EQ(cost->relative(), 0.05);
    ASSERT_TRUE(cost->threshold.has_value());
    const auto* ir = b.change(metrics::Metric::event(metrics::Event::Ir));
    ASSERT_NE(ir, nullptr);
    EXPECT_FALSE(ir->threshold.has_value()) << "Ir is shown, not gated, by default";
    EXPECT_EQ(b.headline(), cost);
    EXPECT_EQ(c.worst_regression(), &b);
    EXPECT_EQ(c.exit_code(), ExitCode::kRegression);
}

TEST(Comparison, GatedEventAndWorstRegression) {
    CompareOptions o;
    o.thresholds.add("cost=off,Ir=0.5%|10");
    const auto c = cmp(run("b", {bench("a", 10'000), bench("b", 10'000)}),
                       run("h", {bench("a", 10'100), bench("b", 10'300)}), o);
    EXPECT_EQ(c.benchmarks[0].verdict, Verdict::Regression);
    EXPECT_EQ(c.benchmarks[0].headline()->metric, metrics::Metric::event(metrics::Event::Ir));
    EXPECT_EQ(c.worst_regression()->name, "b");
    EXPECT_EQ(c.counts().regressions, 2u);
}

TEST(Comparison, MispredictsAreGatedLikeAnyMetric) {
    CompareOptions o;
    o.thresholds.add("cost=off,Bcm=1%|10");
    auto base = run("b", {branch_bench("a", 100'000)});
    auto head = run("h", {branch_bench("a", 100'000)});
    for (auto* r : {&base, &head}) {
        r->fingerprint.branch_sim = true;
        r->fingerprint.weights = r->benchmarks[0].weights;
    }
    head.benchmarks[0].events.set(metrics::Event::Bcm, 600);
    const auto c = cmp(base, head, o);
    const auto* m = c.benchmarks.at(0).change(metrics::Metric::event(metrics::Event::Bcm));
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->base, 500u);
    EXPECT_EQ(m->head, 600u);
    EXPECT_EQ(m->verdict, Verdict::Regression);
    EXPECT_EQ(c.exit_code(), ExitCode::kRegression);
}

TEST(Comparison, AddedRemovedFailedFixed) {
    const auto base = run("b", {bench("same", 1000), bench("gone", 1000), failed_bench("broke"),
                                failed_bench("fixed"), failed_bench("still")});
    const auto head = run("h", {bench("same", 1000), bench("new", 1000), failed_bench("broke2"),
                                bench("fixed", 1000), failed_bench("still")});
    auto c = cmp(base, head);
    std::map<std::string, Verdict> v;
    for (const auto& b : c.benchmarks)
        v[b.name] = b.verdict;
    EXPECT_EQ(v["same"], Verdict::Unchanged);
    EXPECT_EQ(v["new"], Verdict::Added);
    EXPECT_EQ(v["gone"], Verdict::Removed);
    EXPECT_EQ(v["broke"], Verdict::Removed);
    EXPECT_EQ(v["broke2"], Verdict::Failed) << "failing in HEAD and not in BASE";
    EXPECT_EQ(v["fixed"], Verdict::Fixed);
    EXPECT_EQ(v["still"], Verdict::StillFailing);
    EXPECT_EQ(c.benchmarks.back().name, "broke") << "removed ones come last, in BASE order";
    EXPECT_FALSE(c.passed()) << "a benchmark failing in HEAD fails the gate";

    const auto ok_head = run("h", {bench("same", 1000), bench("new", 1000)});
    EXPECT_TRUE(cmp(base, ok_head).passed()) << "missing benchmarks are listed, not failures";
    CompareOptions strict;
    strict.fail_on_missing = true;
    const auto s = cmp(base, ok_head, strict);
    EXPECT_FALSE(s.passed());
    EXPECT_EQ(s.counts().removed, 4u);
}

// The first pull request of a suite, or a branch's first run: nothing to compare with.
TEST(Comparison, WithoutABaselineEveryBenchmarkIsAddedAndAFailureStillFails) {
    auto c = compare_to_nothing(run("h", {bench("a", 1000), bench("b", 2000)}),
                                side_of(run("h", {}), "HEAD"), {}, "the merge base has no suite");
    EXPECT_FALSE(c.has_baseline);
    EXPECT_EQ(c.base.label, "none");
    ASSERT_EQ(c.benchmarks.size(), 2u);
    EXPECT_EQ(c.benchmarks[0].verdict, Verdict::Added);
    EXPECT_EQ(c.benchmarks[1].verdict, Verdict::Added);
    EXPECT_TRUE(c.passed());
    ASSERT_EQ(c.notes.size(), 1u);
    EXPECT_EQ(c.notes[0],
              "No baseline: the merge base has no suite; every benchmark is reported as added");
    EXPECT_TRUE(c.differences.empty()) << "no fingerprint to differ from";

    const auto broken = compare_to_nothing(run("h", {bench("a", 1000), failed_bench("b")}),
                                           side_of(run("h", {}), "HEAD"), {}, "first run");
    EXPECT_EQ(broken.benchmarks[1].verdict, Verdict::Failed);
    EXPECT_FALSE(broken.passed()) << "a broken benchmark fails the gate without a baseline too";
}

// What the suite's `threshold` (or `run --threshold`) recorded in a result is the gate for
// that benchmark, unless compare is given rules.
TEST(Comparison, TheThresholdARunRecordedIsApplied) {
    auto head_bench = [](std::string name, std::uint64_t cost, std::string threshold) {
        auto b = bench(std::move(name), 1000, cost);
        b.threshold = std::move(threshold);
        return b;
    };
    const auto base = run("b", {bench("loose", 1000, 100'000), bench("tight", 1000, 100'000),
                                bench("plain", 1000, 100'000)});
    const auto head = run(
        "h", {head_bench("loose", 105'000, "10%"), head_bench("tight", 100'600, "ir=5%,cost=0.5%"),
              head_bench("plain", 105'000, "")});
    auto c = cmp(base, head);
    EXPECT_EQ(c.benchmarks[0].verdict, Verdict::Changed) << "+5% is within its 10%";
    EXPECT_EQ(c.benchmarks[1].verdict, Verdict::Regression) << "+0.6% is beyond its 0.5%";
    EXPECT_EQ(c.benchmarks[2].verdict, Verdict::Regression) << "the default 1% and 1,000";
    ASSERT_EQ(c.recorded_thresholds.size(), 2u);
    EXPECT_EQ(c.recorded_thresholds[0], (std::pair<std::string, std::size_t>{"10%", 1}));

    CompareOptions given;
    given.thresholds.add("20%");
    c = cmp(base, head, given);
    EXPECT_EQ(c.benchmarks[1].verdict, Verdict::Changed) << "the rules given to compare win";
    EXPECT_EQ(c.benchmarks[2].verdict, Verdict::Changed);

    const auto bad = run("h", {head_bench("loose", 105'000, "lots")});
    try {
        cmp(base, bad);
        FAIL() << "a bad recorded threshold was accepted";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("HEAD's benchmark 'loose' records a bad threshold"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Comparison, DifferentFingerprintsAreRefusedUnlessForced) {
    const auto base = run("b", {bench("x", 1000)});
    auto head = run("h", {bench("x", 1000)});
    head.fingerprint.weights = metrics::parse_weights("kcachegrind");
    head.fingerprint.valgrind_version = "3.22.0";
    try {
        cmp(base, head);
        FAIL() << "compared different fingerprints";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("weights: 1/5/35 vs 1/10/100"), std::string::npos) << what;
        EXPECT_NE(what.find("valgrind: 3.19.0 vs 3.22.0"), std::string::npos) << what;
        EXPECT_NE(e.hint().find("--force"), std::string::npos);
    }
    CompareOptions force;
    force.force = true;
    const auto c = cmp(base, head, force);
    EXPECT_TRUE(c.forced);
    EXPECT_EQ(c.differences.size(), 2u);
}

TEST(Comparison, DifferentLoaderCachesAreAWarningNotARefusal) {
    auto base = run("b", {bench("x", 1000)});
    auto head = run("h", {bench("x", 1000)});
    const auto warned = [&] {
        const auto c = cmp(base, head);
        return std::any_of(c.warnings.begin(), c.warnings.end(), [](const std::string& w) {
            return w.find("/etc/ld.so.cache") != std::string::npos;
        });
    };
    base.fingerprint.loader_cache = "00000000000000aa";
    head.fingerprint.loader_cache = "00000000000000aa";
    EXPECT_FALSE(warned());
    head.fingerprint.loader_cache = "00000000000000bb";
    EXPECT_TRUE(warned());
    EXPECT_FALSE(cmp(base, head).forced) << "comparable: only start-up can differ";
    head.fingerprint.loader_cache = "";  // a result file from before the field existed
    EXPECT_FALSE(warned());
}

TEST(Comparison, PerBenchmarkToolMustMatch) {
    const auto base = run("b", {bench("x", 1000)});
    auto head = run("h", {bench("x", 1000)});
    head.benchmarks[0].tool = "callgrind";
    const auto diffs = incompatibilities(base, head);
    ASSERT_EQ(diffs.size(), 1u);
    EXPECT_NE(diffs[0].find("tool cachegrind vs callgrind"), std::string::npos) << diffs[0];
}

// Region results of Callgrind and of Cachegrind (--region-tool) count differently: even with
// --force they are never set against each other.
TEST(Comparison, ResultsOfTwoToolsAreNeverComparedEvenWhenForced) {
    auto base = run("b", {bench("r/a", 1000), bench("r/b", 1000)});
    auto head = run("h", {bench("r/a", 5000), bench("r/b", 5000)});
    base.benchmarks[0].tool = "callgrind";
    CompareOptions force;
    force.force = true;
    const auto c = cmp(base, head, force);
    ASSERT_EQ(c.benchmarks.size(), 2u);
    EXPECT_EQ(c.benchmarks[0].name, "r/a");
    EXPECT_EQ(c.benchmarks[0].verdict, Verdict::Added);
    EXPECT_FALSE(c.benchmarks[0].base);
    EXPECT_EQ(c.benchmarks[1].verdict, Verdict::Regression);  // same tool: compared
    ASSERT_FALSE(c.warnings.empty());
    EXPECT_EQ(c.warnings[0],
              "r/a was measured with callgrind in BASE and cachegrind in HEAD: results of two "
              "Valgrind tools are never compared, so it is reported as added");
}

TEST(Comparison, WarnsAboutDuplicatesAndUnmeasuredMetrics) {
    CompareOptions o;
    o.thresholds.add("Bc=1%");
    const auto c =
        cmp(run("b", {bench("x", 1000), bench("x", 2000)}), run("h", {bench("x", 1000)}), o);
    ASSERT_EQ(c.benchmarks.size(), 1u);
    ASSERT_EQ(c.warnings.size(), 2u);
    EXPECT_NE(c.warnings[0].find("more than once"), std::string::npos);
    EXPECT_NE(c.warnings[1].find("Bc"), std::string::npos);
}

}  // namespace cgbench::compare
