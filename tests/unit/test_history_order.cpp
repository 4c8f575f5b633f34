// The order of a history (history/order.cpp): results recorded out of order are put in
// first-parent order from the facts each run recorded, runs from a shallow clone by commit
// time (or one after a measured parent), runs without facts where they were measured, and a
// branch whose line is not one first-parent line is named.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "history/order.hpp"
#include "history/steps.hpp"
#include "history_fixtures.hpp"

namespace cgbench::history {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::operator+;

namespace {

// "2020-05-01T12:MM:00+02:00": commit `n`'s time, a minute per commit.
std::string time_of(std::size_t n) {
    return fmt::format("2020-05-01T{:02}:{:02}:00+02:00", 12 + n / 60, n % 60);
}

// Records the facts of commit `n` (the n-th of main's first-parent line, 1-based) on run `r`:
// its place (unless `shallow`), time and parent (commit n - 1).
void facts(History& h, std::size_t r, std::size_t n, bool shallow = false) {
    auto& git = h.runs[r].git;
    git.commit = HistoryBuilder::commit_of(n);
    git.commit_time = time_of(n);
    git.author_time = time_of(n);
    git.subject = fmt::format("commit {}", n);
    git.parents = {HistoryBuilder::commit_of(n - 1)};
    git.shallow = shallow;
    if (!shallow) git.first_parent_depth = n;
}

// The commits of h.runs, in order, as their numbers.
std::vector<std::string> commits(const History& h) {
    std::vector<std::string> out;
    for (const auto& r : h.runs)
        out.push_back(r.git.commit.value_or("-"));
    return out;
}

// History of `order.size()` runs on main measuring commits `order` (1-based numbers) in that
// order, with `costs[n - 1]` the cost of commit n, each run's facts recorded.
History recorded(const std::vector<std::size_t>& order, const std::vector<std::uint64_t>& costs,
                 bool shallow = false) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    std::vector<std::optional<std::uint64_t>> series;
    for (const auto n : order) {
        runs.push_back(b.add_run());
        facts(b.get(), runs.back(), n, shallow);
        series.push_back(costs[n - 1]);
    }
    b.series("bench", runs, series);
    return b.take();
}

std::vector<std::string> in_commit_order(std::size_t n) {
    std::vector<std::string> out;
    for (std::size_t i = 1; i <= n; ++i)
        out.push_back(HistoryBuilder::commit_of(i));
    return out;
}

}  // namespace

TEST(HistoryOrder, ResultsRecordedOutOfOrderFollowTheFirstParentLine) {
    // Commits 1..6, a step at 4; 2 and 4 measured last (a backfill, a late pipeline).
    const std::vector<std::uint64_t> costs = {100, 100, 100, 110, 110, 110};
    auto late = recorded({1, 3, 5, 6, 2, 4}, costs);
    order_runs(late);
    EXPECT_EQ(commits(late), in_commit_order(6));
    EXPECT_EQ(late.ordering.ancestry, 6u);
    EXPECT_EQ(late.ordering.measured, 0u);
    EXPECT_TRUE(late.ordering.conflicts.empty());
    // The series followed its runs: in run order, each cost still its commit's.
    const auto& s = late.series.front();
    for (std::size_t i = 0; i < s.results.size(); ++i) {
        EXPECT_EQ(s.results[i].run, i);
        EXPECT_EQ(*s.results[i].cost, costs[i]);
    }
    // The steps are those of in-order recording: one, at commit 4, from commit 3.
    auto in_order = recorded({1, 2, 3, 4, 5, 6}, costs);
    order_runs(in_order);
    for (const auto* h : {&late, &in_order}) {
        const auto branches = find_all_steps(*h, {"main", std::nullopt, false});
        ASSERT_EQ(branches.size(), 1u);
        ASSERT_EQ(branches[0].events.size(), 1u);
        const auto& step = branches[0].events[0].steps.at(0);
        EXPECT_EQ(h->runs[step.after.run].git.commit, HistoryBuilder::commit_of(4));
        EXPECT_EQ(h->runs[step.before.run].git.commit, HistoryBuilder::commit_of(3));
        EXPECT_EQ(branches[0].blip_count, 0u);
    }
}

TEST(HistoryOrder, MeasurementOrderWouldHaveInventedSteps) {
    // The same history without ordering: commit 2 after 6 looks like a step back and forth.
    auto late = recorded({1, 3, 5, 6, 2, 4}, {100, 100, 100, 110, 110, 110});
    const auto unordered = find_all_steps(late, {"main", std::nullopt, false});
    std::size_t moves = unordered[0].events.size() + unordered[0].blip_count;
    EXPECT_GT(moves, 1u) << "the defect the order fixes";
}

TEST(HistoryOrder, AShallowCloneIsOrderedByCommitTimeAndSaysSo) {
    auto h = recorded({1, 3, 2, 4}, {100, 100, 100, 120}, true);
    order_runs(h);
    EXPECT_EQ(commits(h), in_commit_order(4));
    EXPECT_EQ(h.ordering.ancestry, 0u);
    EXPECT_EQ(h.ordering.commit_time, 4u);
}

TEST(HistoryOrder, AShallowRunAfterAMeasuredParentTakesThePlaceAfterIt) {
    // Commits 1..3 from a full clone; 4 from a shallow one, recorded first; 5 from a shallow
    // one with an unmeasured parent, earlier by its clock than the rest.
    auto h = recorded({4, 1, 2, 3, 5}, {1, 1, 1, 1, 1});
    for (const auto r : {0u, 4u}) {
        h.runs[r].git.first_parent_depth.reset();
        h.runs[r].git.shallow = true;
    }
    h.runs[4].git.parents = {"0123456789012345678901234567890123456789"};
    h.runs[4].git.commit_time = "2020-05-01T09:00:00Z";
    order_runs(h);
    EXPECT_EQ(h.runs[4].git.commit, HistoryBuilder::commit_of(4)) << "after 3, its parent";
    EXPECT_EQ(h.runs[3].git.commit, HistoryBuilder::commit_of(3));
    EXPECT_EQ(h.runs[0].git.commit, HistoryBuilder::commit_of(5)) << "by its clock, first";
    EXPECT_EQ(h.ordering.ancestry, 4u);
    EXPECT_EQ(h.ordering.commit_time, 1u);
}

TEST(HistoryOrder, RunsWithoutFactsKeepTheirPlaceAndAreCounted) {
    // Two runs recorded by an older cgbench (no facts), then three with facts out of order.
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 5; ++i)
        runs.push_back(b.add_run());
    auto h = b.take();
    facts(h, 2, 9);
    facts(h, 3, 7);
    facts(h, 4, 8);
    const auto old0 = h.runs[0].git.commit;
    const auto old1 = h.runs[1].git.commit;
    order_runs(h);
    EXPECT_EQ(h.runs[0].git.commit, old0);
    EXPECT_EQ(h.runs[1].git.commit, old1);
    EXPECT_EQ(h.runs[2].git.commit, HistoryBuilder::commit_of(7));
    EXPECT_EQ(h.runs[3].git.commit, HistoryBuilder::commit_of(8));
    EXPECT_EQ(h.runs[4].git.commit, HistoryBuilder::commit_of(9));
    EXPECT_EQ(h.ordering.measured, 2u);
    EXPECT_EQ(h.ordering.ancestry, 3u);
}

TEST(HistoryOrder, ARewrittenBranchIsNamedAndNothingIsLost) {
    // Commits 1..4 on main, then main force-pushed: 3' and 4' replace 3 and 4.
    auto h = recorded({1, 2, 3, 4, 3, 4}, {100, 100, 100, 100, 105, 105});
    h.runs[4].git.commit = std::string(40, 'a');
    h.runs[5].git.commit = std::string(40, 'b');
    h.runs[5].git.parents = {std::string(40, 'a')};
    order_runs(h);
    EXPECT_EQ(h.runs.size(), 6u) << "every run kept";
    EXPECT_EQ(h.series[0].results.size(), 6u);
    ASSERT_GE(h.ordering.conflict_count, 1u);
    const auto& c = h.ordering.conflicts.front();
    EXPECT_EQ(c.branch, "main");
    EXPECT_TRUE(c.same_place);
    EXPECT_EQ(c.depth, 3u);
}

TEST(HistoryOrder, ACommitFollowingAnotherThanItsParentIsAConflict) {
    auto h = recorded({1, 2, 3}, {1, 1, 1});
    h.runs[2].git.parents = {std::string(40, 'f')};  // 3 does not follow 2
    order_runs(h);
    ASSERT_EQ(h.ordering.conflicts.size(), 1u);
    EXPECT_FALSE(h.ordering.conflicts[0].same_place);
    EXPECT_EQ(h.ordering.conflicts[0].after, HistoryBuilder::commit_of(3));
}

TEST(HistoryOrder, ProbesAndUncommittedRunsMakeNoConflict) {
    auto h = recorded({1, 2, 3}, {1, 1, 1});
    // A bisect probe and a dirty run at another commit in place 2 of main.
    for (const bool probe : {true, false}) {
        const auto i = h.runs.size();
        h.runs.push_back(h.runs[1]);
        h.runs[i].id = fmt::format("extra{}", i);
        h.runs[i].git.commit = std::string(40, probe ? 'p' : 'd');
        if (probe) {
            h.runs[i].recorded_by = std::string(kRecordedByBisect);
            h.runs[i].git.branch.reset();
        } else {
            h.runs[i].git.dirty = true;
        }
    }
    order_runs(h);
    EXPECT_EQ(h.ordering.conflict_count, 0u);
}

}  // namespace cgbench::history
