// Which runs prune drops: every rule given must match, and the default branch's newest runs
// are never dropped.

#include <gtest/gtest.h>

#include "history/lines.hpp"
#include "history/prune.hpp"
#include "history_fixtures.hpp"

namespace cgbench::history {

using testing_fixtures::HistoryBuilder;

namespace {

// 150 runs on main, 10 on "feature", 5 dirty ones on main, oldest first.
History runs() {
    HistoryBuilder b;
    for (int i = 0; i < 150; ++i) {
        b.add_run("main");
        if (i % 15 == 0) b.add_run("feature");
        if (i % 30 == 0) b.add_run("main", true);
    }
    return b.take();
}

std::size_t count_branch(const History& h, const PruneSelection& s, const std::string& branch) {
    std::size_t n = 0;
    for (const auto i : s.drop)
        n += branch_of(h.runs[i]) == branch ? 1 : 0;
    return n;
}

}  // namespace

TEST(HistoryPrune, NeedsARule) {
    EXPECT_FALSE(has_rules({}));
    PruneRules r;
    r.dirty_only = true;
    EXPECT_TRUE(has_rules(r));
}

TEST(HistoryPrune, KeepLastPerBranch) {
    const auto h = runs();
    PruneRules r;
    r.keep_last = 3;
    r.default_branch = "main";
    const auto s = select_prune(h.runs, r);
    EXPECT_EQ(count_branch(h, s, "feature"), 7u);
    EXPECT_EQ(count_branch(h, s, "main"), 155u - 3u);
    EXPECT_EQ(s.protected_runs, 0u) << "keep-last keeps them by itself";
    for (const auto i : s.drop)
        EXPECT_LT(i, h.runs.size() - 3);
}

TEST(HistoryPrune, TheDefaultBranchsNewestAreNeverDropped) {
    const auto h = runs();
    PruneRules r;
    r.branches = {"main"};  // "drop main": only what is beyond its newest 100
    r.default_branch = "main";
    const auto s = select_prune(h.runs, r);
    EXPECT_EQ(count_branch(h, s, "main"), 155u - kProtectedRuns);
    EXPECT_EQ(s.protected_runs, kProtectedRuns);
    EXPECT_EQ(count_branch(h, s, "feature"), 0u);
}

TEST(HistoryPrune, RulesCombine) {
    const auto h = runs();
    PruneRules r;
    r.dirty_only = true;
    r.before = h.runs[60].started;
    r.default_branch = "main";
    const auto s = select_prune(h.runs, r);
    ASSERT_FALSE(s.drop.empty());
    for (const auto i : s.drop) {
        EXPECT_TRUE(h.runs[i].git.dirty.value_or(false));
        EXPECT_LT(h.runs[i].started, h.runs[60].started);
    }
    EXPECT_EQ(s.drop.size() + s.protected_runs, 2u) << "dirty runs 0 and 30 are older";
}

}  // namespace cgbench::history
