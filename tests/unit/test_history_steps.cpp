// Step detection on synthetic series: exact counts make every lasting move a step, however
// small; a move undone by the next result is a blip; a fingerprint change is never code;
// wobble is measured from the benchmark's own history.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "history/steps.hpp"
#include "history_fixtures.hpp"

namespace cgbench::history {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::operator+;

namespace {

std::vector<BranchSteps> steps_of(const History& h, bool wobble = false) {
    return find_all_steps(h, {default_branch(h, std::nullopt), std::nullopt, wobble});
}

std::vector<const BenchmarkStep*> all_steps(const std::vector<BranchSteps>& branches) {
    std::vector<const BenchmarkStep*> out;
    for (const auto& b : branches) {
        for (const auto& e : b.events) {
            for (const auto& s : e.steps)
                out.push_back(&s);
        }
    }
    return out;
}

// Pointers into `branches`: keep them alive.
std::vector<const BenchmarkStep*> all_steps(std::vector<BranchSteps>&&) = delete;

}  // namespace

TEST(HistorySteps, ATinyLastingStepIsFound) {
    // +0.005%: 20,000,000 -> 20,001,000, at commit 10 of 20.
    const auto h = HistoryBuilder::simple(flat(10, 20'000'000) + flat(10, 20'001'000));
    const auto branches = steps_of(h);
    const auto steps = all_steps(branches);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0]->step.label, Label::Code);
    EXPECT_NEAR(steps[0]->step.change, 0.00005, 1e-12);
    EXPECT_EQ(h.runs[steps[0]->after.run].git.commit, HistoryBuilder::commit_of(10));
    EXPECT_EQ(h.runs[steps[0]->before.run].git.commit, HistoryBuilder::commit_of(9));
    EXPECT_FALSE(steps[0]->step.pending);
    EXPECT_EQ(steps[0]->wobble.bound, 0) << "exact counts: no wobble";
    EXPECT_TRUE(branches[0].blips.empty());
}

TEST(HistorySteps, AOneCommitBlipIsNotAStep) {
    const auto h =
        HistoryBuilder::simple(flat(6, 1'000'000) + flat(1, 1'300'000) + flat(6, 1'000'000));
    const auto branches = steps_of(h);
    EXPECT_TRUE(all_steps(branches).empty());
    ASSERT_EQ(branches[0].blips.size(), 1u);
    EXPECT_EQ(h.runs[branches[0].blips[0].at.run].git.commit, HistoryBuilder::commit_of(6));
    EXPECT_NEAR(branches[0].blips[0].blip.change, 0.3, 1e-12);
}

TEST(HistorySteps, BlipsAreCountedWhenNotListed) {
    const auto h =
        HistoryBuilder::simple(flat(6, 1'000'000) + flat(1, 1'300'000) + flat(6, 1'000'000) +
                               flat(1, 900'000) + flat(3, 1'000'000));
    const auto listed = steps_of(h);
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].blips.size(), 2u);
    EXPECT_EQ(listed[0].blip_count, 2u);
    StepsOptions quiet{"main", std::nullopt, false};
    quiet.list_blips = false;
    const auto counted = find_all_steps(h, quiet);
    ASSERT_EQ(counted.size(), 1u);
    EXPECT_TRUE(counted[0].blips.empty());
    EXPECT_EQ(counted[0].blip_count, 2u);
}

// Benchmarks on two branches with steps, blips, a failure and a re-measured commit.
History two_branch_history() {
    HistoryBuilder b;
    std::vector<std::size_t> main_runs;
    std::vector<std::size_t> feature_runs;
    for (std::size_t i = 0; i < 12; ++i)
        main_runs.push_back(b.add_run());
    main_runs.push_back(b.add_run("main", false, HistoryBuilder::commit_of(11)));  // again
    for (std::size_t i = 0; i < 6; ++i)
        feature_runs.push_back(b.add_run("feature"));
    auto runs = main_runs;
    runs.insert(runs.end(), feature_runs.begin(), feature_runs.end());
    b.series(
        "a", runs,
        flat(4, 100) + flat(1, 130) + flat(4, 100) + flat(4, 120) + flat(3, 120) + flat(3, 150));
    b.series("b", runs,
             flat(3, 500) + std::vector<std::optional<std::uint64_t>>{std::nullopt} + flat(5, 500) +
                 flat(4, 510) + flat(6, 490));
    b.series("c", main_runs, flat(6, 7) + flat(7, 9));
    return b.take();
}

TEST(HistorySteps, OneSeriesAtATimeFindsWhatTheWholeHistoryGives) {
    const auto h = two_branch_history();
    const StepsOptions options{"main", std::nullopt, true};
    const auto whole = find_all_steps(h, options);
    StepFinder finder(h, options);
    Series buffer;  // reused, as HistoryBackend::scan_series reuses its own
    for (const auto& s : h.series) {
        buffer.name = s.name;
        buffer.results.assign(s.results.begin(), s.results.end());
        finder.add(buffer);
        buffer.name = "overwritten";
        buffer.results.clear();
    }
    const auto parts = finder.finish();
    ASSERT_EQ(parts.size(), whole.size());
    ASSERT_EQ(whole.size(), 2u);
    std::size_t steps = 0;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ(parts[i].branch, whole[i].branch);
        EXPECT_EQ(parts[i].runs, whole[i].runs);
        EXPECT_EQ(parts[i].benchmarks, whole[i].benchmarks);
        EXPECT_EQ(parts[i].blip_count, whole[i].blip_count);
        ASSERT_EQ(parts[i].events.size(), whole[i].events.size());
        for (std::size_t e = 0; e < whole[i].events.size(); ++e) {
            const auto& pe = parts[i].events[e];
            const auto& we = whole[i].events[e];
            EXPECT_EQ(pe.run, we.run);
            ASSERT_EQ(pe.steps.size(), we.steps.size());
            for (std::size_t k = 0; k < we.steps.size(); ++k) {
                EXPECT_EQ(pe.steps[k].benchmark, we.steps[k].benchmark);
                EXPECT_EQ(pe.steps[k].before.run, we.steps[k].before.run);
                EXPECT_EQ(pe.steps[k].after.run, we.steps[k].after.run);
                EXPECT_EQ(pe.steps[k].step.change, we.steps[k].step.change);
                ++steps;
            }
        }
        ASSERT_EQ(parts[i].blips.size(), whole[i].blips.size());
        for (std::size_t k = 0; k < whole[i].blips.size(); ++k)
            EXPECT_EQ(parts[i].blips[k].benchmark, whole[i].blips[k].benchmark);
    }
    EXPECT_EQ(steps, 4u) << "a and b on main, a on feature, c";
    EXPECT_EQ(whole[0].blip_count, 1u) << "a's one-commit excursion";
}

TEST(HistorySteps, ATwoCommitExcursionIsTwoSteps) {
    const auto h = HistoryBuilder::simple(flat(4, 1000) + flat(2, 1100) + flat(4, 1000));
    const auto branches = steps_of(h);
    const auto steps = all_steps(branches);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_GT(steps[0]->step.change, 0);
    EXPECT_LT(steps[1]->step.change, 0);
}

TEST(HistorySteps, AFingerprintChangeIsNeverACodeStep) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 5; ++i)
        runs.push_back(b.add_run());
    b.change_fingerprint([](Fingerprint& f) { f.valgrind_version = "3.22.0"; });
    for (int i = 0; i < 5; ++i)
        runs.push_back(b.add_run());
    b.series("bench", runs, flat(5, 1000) + flat(5, 1500));  // +50%, as big as code gets
    const auto h = b.take();
    const auto branches = steps_of(h);
    const auto steps = all_steps(branches);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0]->step.label, Label::Environment);
    ASSERT_FALSE(steps[0]->step.environment.empty());
    EXPECT_EQ(steps[0]->step.environment[0], "valgrind: 3.19.0 vs 3.22.0");
}

TEST(HistorySteps, ALoaderCacheOrCompilerChangeIsEnvironmentToo) {
    for (const auto& [what, edit] :
         std::vector<std::pair<std::string, std::function<void(Fingerprint&)>>>{
             {"loader cache", [](Fingerprint& f) { f.loader_cache = "00000000000000bb"; }},
             {"compiler", [](Fingerprint& f) { f.compilers = {"GCC: (Debian 13.1.0) 13.1.0"}; }}}) {
        HistoryBuilder b;
        b.change_fingerprint([](Fingerprint& f) {
            f.loader_cache = "00000000000000aa";
            f.compilers = {"GCC: (Debian 12.2.0-14) 12.2.0"};
        });
        std::vector<std::size_t> runs;
        for (int i = 0; i < 4; ++i)
            runs.push_back(b.add_run());
        b.change_fingerprint(edit);
        for (int i = 0; i < 4; ++i)
            runs.push_back(b.add_run());
        b.series("bench", runs, flat(4, 100'000) + flat(4, 100'214));
        const auto h = b.take();
        const auto branches = steps_of(h);
        const auto steps = all_steps(branches);
        ASSERT_EQ(steps.size(), 1u) << what;
        EXPECT_EQ(steps[0]->step.label, Label::Environment) << what;
        ASSERT_EQ(steps[0]->step.environment.size(), 1u) << what;
        EXPECT_EQ(steps[0]->step.environment[0].rfind(what, 0), 0u)
            << steps[0]->step.environment[0];
        EXPECT_EQ(h.keys.front(), h.keys.back()) << "comparable: the same epoch";
    }
}

TEST(HistorySteps, WobbleComesFromTheBenchmarksOwnHistory) {
    // Results wandering at random within 0.01% (0..1000 above 10,000,000), then a 1% step.
    // A fixed-seed LCG (std::minstd_rand is fully specified) keeps the data the same everywhere.
    std::minstd_rand noise(1);
    std::vector<std::optional<std::uint64_t>> costs;
    for (int i = 0; i < 80; ++i)
        costs.push_back((i < 40 ? 10'000'000 : 10'100'000) + noise() % 1001);
    // The largest move between neighbours that is noise alone (not the step at 39 -> 40).
    double largest_noise_move = 0;
    for (std::size_t i = 1; i < costs.size(); ++i) {
        if (i == 40) continue;
        const auto a = static_cast<double>(*costs[i - 1]);
        largest_noise_move =
            std::max(largest_noise_move, std::abs(static_cast<double>(*costs[i]) - a) / a);
    }
    const auto h = HistoryBuilder::simple(costs);
    const auto branches = steps_of(h, true);
    std::size_t code = 0;
    for (const auto* s : all_steps(branches)) {
        if (s->step.label == Label::Code) {
            ++code;
            EXPECT_NEAR(s->step.change, 0.01, 0.0015);
        } else {
            EXPECT_EQ(s->step.label, Label::Wobble);
            EXPECT_LT(std::abs(s->step.change), 0.00011);
        }
    }
    EXPECT_EQ(code, 1u) << "only the 1% step is code";
    const auto& wobble = all_steps(branches).front()->wobble;
    EXPECT_GE(wobble.bound, largest_noise_move) << "every move of the noise is wobble";
    EXPECT_LT(wobble.bound, 0.005) << "far below the 1% step";
    EXPECT_GE(wobble.samples, kMinWobbleSamples);
    EXPECT_GT(branches[0].wobble_steps, 0u);
    // Without -v the wobble steps are counted, not listed.
    const auto quiet = steps_of(h, false);
    ASSERT_EQ(all_steps(quiet).size(), 1u);
    EXPECT_EQ(quiet[0].wobble_steps, branches[0].wobble_steps);
}

TEST(HistorySteps, TheNewestStepIsPending) {
    const auto h = HistoryBuilder::simple(flat(5, 1000) + flat(1, 1013));
    const auto branches = steps_of(h);
    const auto steps = all_steps(branches);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_TRUE(steps[0]->step.pending);
}

TEST(HistorySteps, BenchmarksSteppingAtOneCommitAreOneEvent) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 8; ++i)
        runs.push_back(b.add_run());
    b.series("b/one", runs, flat(4, 100) + flat(4, 110));
    b.series("a/two", runs, flat(4, 200) + flat(4, 190));
    b.series("c/three", runs, flat(6, 300) + flat(2, 330));
    const auto h = b.take();
    const auto branches = steps_of(h);
    ASSERT_EQ(branches.size(), 1u);
    ASSERT_EQ(branches[0].events.size(), 2u);
    const auto& first = branches[0].events[0];
    ASSERT_EQ(first.steps.size(), 2u);
    EXPECT_EQ(first.steps[0].benchmark, "a/two") << "by name";
    EXPECT_EQ(first.steps[1].benchmark, "b/one");
    EXPECT_EQ(h.runs[first.run].git.commit, HistoryBuilder::commit_of(4));
    EXPECT_EQ(branches[0].events[1].steps.size(), 1u);
    EXPECT_EQ(branches[0].benchmarks, 3u);
    EXPECT_EQ(branches[0].commits, 8u);
}

TEST(HistorySteps, BranchesAndDirtyRunsAreLinesOfTheirOwn) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    std::vector<std::optional<std::uint64_t>> costs;
    for (int i = 0; i < 6; ++i) {
        runs.push_back(b.add_run());
        costs.push_back(1000);
        if (i == 2) {
            runs.push_back(b.add_run("feature"));  // a branch run amid main's
            costs.push_back(2237);
            runs.push_back(b.add_run("main", true));  // a dirty local run
            costs.push_back(5000);
        }
    }
    b.series("bench", runs, costs);
    const auto h = b.take();
    const auto branches = steps_of(h);
    EXPECT_TRUE(all_steps(branches).empty()) << "no spike in main's line";
    ASSERT_EQ(branches.size(), 2u);
    EXPECT_EQ(branches[0].branch, "main");
    EXPECT_TRUE(branches[0].is_default);
    EXPECT_EQ(branches[0].commits, 6u) << "the dirty run is no commit of main's line";
    EXPECT_EQ(branches[1].branch, "feature");
}

TEST(HistorySteps, ACommitMeasuredTwiceIsOnePoint) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 5; ++i) {
        runs.push_back(b.add_run());
        runs.push_back(b.add_run("main", false, HistoryBuilder::commit_of(runs.back())));
    }
    // Each commit measured twice, the second time 0.001% higher: not a step, but wobble.
    std::vector<std::optional<std::uint64_t>> costs;
    for (int i = 0; i < 5; ++i) {
        costs.push_back(100'000'000);
        costs.push_back(100'001'000);
    }
    b.series("bench", runs, costs);
    const auto h = b.take();
    const auto lines = lines_of(h, h.series[0], run_keys(h), "main");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].points.size(), 5u);
    EXPECT_EQ(lines[0].repeats.size(), 5u);
    const auto branches = steps_of(h);
    EXPECT_TRUE(all_steps(branches).empty());
}

TEST(HistorySteps, AFailedResultInBetweenDoesNotHideAStep) {
    const auto h = HistoryBuilder::simple(
        flat(4, 1000) + std::vector<std::optional<std::uint64_t>>{std::nullopt} + flat(4, 1073));
    const auto branches = steps_of(h);
    const auto steps = all_steps(branches);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(h.runs[steps[0]->after.run].git.commit, HistoryBuilder::commit_of(5));
    EXPECT_EQ(h.runs[steps[0]->before.run].git.commit, HistoryBuilder::commit_of(3));
}

TEST(HistorySteps, OnlyTheBranchAsked) {
    HistoryBuilder b;
    const auto m = b.add_run();
    const auto f = b.add_run("feature");
    b.series("bench", {m, f}, {100, 200});
    const auto h = b.take();
    const auto out = find_all_steps(h, {"main", std::string("feature"), false});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].branch, "feature");
}

TEST(HistoryWobble, QuartilesAreThoseOfTheSortedSamples) {
    std::mt19937_64 rng(15);
    for (const std::size_t n : {10u, 11u, 12u, 13u, 40u, 1001u}) {
        std::vector<std::optional<std::uint64_t>> costs;
        std::uniform_int_distribution<std::uint64_t> noise(0, 50);
        for (std::size_t i = 0; i < n; ++i)
            costs.push_back(10'000 + noise(rng) * (i % 3));
        const auto h = HistoryBuilder::simple(costs);
        const auto keys = run_keys(h);
        const auto bound = wobble_bound(h, lines_of(h, h.series[0], keys, "main"), keys.classes);
        // The bound by the definition: every sample sorted, quartiles interpolated.
        std::vector<double> v;
        for (std::size_t i = 1; i + 1 < n; ++i) {
            const auto c = [&](std::size_t k) { return static_cast<double>(*costs[k]); };
            v.push_back(std::min(std::abs(c(i) - c(i - 1)), std::abs(c(i) - c(i + 1))) / c(i));
        }
        std::sort(v.begin(), v.end());
        const auto q = [&](double p) {
            const double at = p * static_cast<double>(v.size() - 1);
            const auto lo = static_cast<std::size_t>(std::floor(at));
            const auto hi = std::min(lo + 1, v.size() - 1);
            return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
        };
        ASSERT_EQ(bound.samples, v.size());
        EXPECT_EQ(bound.bound, q(0.75) + 3 * (q(0.75) - q(0.25))) << n << " results";
        EXPECT_GT(bound.bound, 0) << n << " results";
    }
}

TEST(HistoryWobble, RobustBound) {
    const auto bound_of = [](const History& h) {
        const auto keys = run_keys(h);
        return wobble_bound(h, lines_of(h, h.series[0], keys, "main"), keys.classes);
    };
    // Alternating, but too few observations to call it wobble.
    const auto few = bound_of(HistoryBuilder::simple({1000, 1001, 1000, 1001, 1000}));
    EXPECT_EQ(few.samples, 3u);
    EXPECT_EQ(few.bound, 0);
    // Enough: the bound covers the alternation.
    const auto many = bound_of(
        HistoryBuilder::simple(flat(1, 1000) + flat(1, 1001) + flat(1, 1000) + flat(1, 1001) +
                               flat(1, 1000) + flat(1, 1001) + flat(1, 1000) + flat(1, 1001) +
                               flat(1, 1000) + flat(1, 1001) + flat(1, 1000)));
    EXPECT_EQ(many.samples, 9u);
    EXPECT_GT(many.bound, 0.0009);
    // Exact counts: none.
    const auto exact = bound_of(HistoryBuilder::simple(flat(30, 1000)));
    EXPECT_EQ(exact.bound, 0);
    EXPECT_EQ(exact.samples, 28u) << "every interior point";
}

}  // namespace cgbench::history

namespace cgbench::history {

namespace {

// Code steps of `benchmark` on the first branch.
std::size_t code_steps(const std::vector<BranchSteps>& branches, const std::string& benchmark) {
    std::size_t n = 0;
    for (const auto& e : branches[0].events) {
        for (const auto& s : e.steps)
            n += s.benchmark == benchmark && s.step.label == Label::Code ? 1 : 0;
    }
    return n;
}

}  // namespace

TEST(HistorySteps, ABenchmarkSwingingThirtyPercentIsNotRepeatable) {
    // A timed loop: ±30% from commit to commit at random (a fixed-seed LCG, the same data
    // everywhere), beside an exact benchmark with one lasting step.
    std::minstd_rand noise(7);
    std::vector<std::optional<std::uint64_t>> swinging;
    for (int i = 0; i < 16; ++i)
        swinging.push_back(700'000 + noise() % 600'001);
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 16; ++i)
        runs.push_back(b.add_run());
    b.series("timed", runs, swinging);
    b.series("exact", runs, flat(8, 5000) + flat(8, 5100));
    const auto h = b.take();
    const auto branches = find_all_steps(h, {"main", std::nullopt, false});
    ASSERT_EQ(branches.size(), 1u);
    ASSERT_EQ(branches[0].wobble.size(), 2u);
    for (const auto& w : branches[0].wobble) {
        if (w.benchmark == "exact") {
            EXPECT_TRUE(w.repeatable());
            EXPECT_EQ(w.wobble.bound, 0);
            EXPECT_EQ(w.moves, 1u);
            EXPECT_EQ(w.noise, 0u);
            continue;
        }
        EXPECT_FALSE(w.repeatable()) << w.noise << " of " << w.moves;
        EXPECT_GE(w.wobble.bound, kWideWobble);
        EXPECT_GT(2 * w.noise, w.moves);
        EXPECT_EQ(w.moves, 15u) << "every commit moved";
        EXPECT_EQ(w.noise + code_steps(branches, "timed"), w.moves);
    }
}

TEST(HistorySteps, MovesWithinTheBoundAreCountedNotDropped) {
    // Noise within 0.01%: a narrow bound, so the benchmark is repeatable; its moves are all
    // counted, none dropped.
    std::minstd_rand noise(3);
    std::vector<std::optional<std::uint64_t>> costs;
    for (int i = 0; i < 30; ++i)
        costs.push_back(10'000'000 + noise() % 1001);
    const auto h = HistoryBuilder::simple(costs);
    const auto branches = find_all_steps(h, {"main", std::nullopt, false});
    ASSERT_EQ(branches[0].wobble.size(), 1u);
    const auto& w = branches[0].wobble[0];
    EXPECT_EQ(w.moves, 29u);
    EXPECT_EQ(w.noise + code_steps(branches, "bench"), w.moves)
        << "every move is noise (within the bound, or undone) or a lasting code step";
    EXPECT_GT(branches[0].wobble_moves, 0u);
    EXPECT_TRUE(w.repeatable()) << "a bound of " << w.wobble.bound << " is not wide";
}

}  // namespace cgbench::history
