// Which stored run answers a question, over every history backend (SQLite, memory): the
// latest run, the latest at a commit (clean before dirty), a commit's runs merged into one,
// the previous run of a branch, a commit's clean run for bisect.

#include <gtest/gtest.h>

#include "backend_fixtures.hpp"
#include "history/stored_runs.hpp"

namespace cgbench::history {

using namespace testing_fixtures;

template <typename B>
class StoredRuns : public HistoryBackendTest<B> {};
TYPED_TEST_SUITE(StoredRuns, Backends, BackendNames);

TYPED_TEST(StoredRuns, LatestRunsAndRunsAtACommit) {
    auto& store = this->backend();
    const auto a = run_at("a", {bench("x", 1000)}, "2026-11-22T01:00:00Z");
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.git.dirty = true;
    auto c = run_at("c", {bench("x", 1200)}, "2026-11-22T03:00:00Z");
    c.git.commit = "ffff";
    for (const auto& r : {a, b, c})
        record_run(store, r);

    EXPECT_EQ(latest_run(store, SourceLines::Read)->id, "c");
    EXPECT_EQ(latest_run(store, SourceLines::Read, "c")->id, "b");
    // b is newer at that commit, but dirty: a clean run wins.
    EXPECT_EQ(latest_run_at_commit(store, *a.git.commit, SourceLines::Read)->id, "a");
    EXPECT_EQ(latest_run_at_commit(store, *a.git.commit, SourceLines::Read, {"a"})->id, "b");
    EXPECT_FALSE(latest_run_at_commit(store, "0000", SourceLines::Read).has_value());
}

TYPED_TEST(StoredRuns, ARunIsCompletedFromItsCommit) {
    // One `cgbench run` per benchmark: x, then y, at the same commit; a dirty run and a run
    // with other weights at that commit must not mix in.
    auto& store = this->backend();
    auto x = run_at("x-run", {bench("x", 1000)}, "2026-11-22T01:00:00Z");
    x.benchmarks[0].functions =
        kept_functions({{"src/decode.c", "decode", {}, 600}, {"", kHostile, {}, 500}});
    const auto y = run_at("y-run", {bench("y", 2000)}, "2026-11-22T02:00:00Z");
    auto dirty = run("dirty-run", {bench("z", 3000)});
    dirty.git.dirty = true;
    auto other = run("other-run", {bench("w", 4000)});
    other.fingerprint.weights = metrics::parse_weights("kcachegrind");
    for (const auto& r : {x, y, dirty, other})
        record_run(store, r);

    std::vector<std::string> used;
    const auto all =
        complete_from_commit(store, *run_by_id(store, "y-run"), {}, used, SourceLines::Read);
    ASSERT_EQ(all.benchmarks.size(), 2u);
    EXPECT_EQ(all.benchmarks[0].name, "y");
    EXPECT_EQ(all.benchmarks[1].name, "x");
    EXPECT_EQ(all.benchmarks[1].functions, x.benchmarks[0].functions);
    EXPECT_EQ(all.id, "y-run");
    EXPECT_EQ(used, (std::vector<std::string>{"y-run", "x-run"}));
    expect_same_run(run("y-run", {}), [&] {
        auto bare = all;
        bare.started = "2026-11-22T03:15:00Z";
        bare.benchmarks.clear();
        return bare;
    }());

    used.clear();
    const auto alone =
        complete_from_commit(store, *run_by_id(store, "y-run"), {"x-run"}, used, SourceLines::Read);
    EXPECT_EQ(alone.benchmarks.size(), 1u);
    EXPECT_EQ(used, (std::vector<std::string>{"y-run"}));

    // The dirty run is completed from dirty runs only; a newer run's result wins.
    auto dirty2 = run_at("dirty-2", {bench("z", 1), bench("v", 5)}, "2026-11-22T09:00:00Z");
    dirty2.git.dirty = true;
    record_run(store, dirty2);
    used.clear();
    const auto d =
        complete_from_commit(store, *run_by_id(store, "dirty-run"), {}, used, SourceLines::Read);
    ASSERT_EQ(d.benchmarks.size(), 2u);
    EXPECT_EQ(d.benchmarks[0].cost, dirty.benchmarks[0].cost) << "the anchor's own z";
    EXPECT_EQ(d.benchmarks[1].name, "v");
    EXPECT_EQ(used, (std::vector<std::string>{"dirty-run", "dirty-2"}));
}

// The default branch watched: the previous run is the latest clean one recorded on the same
// branch and measured the same way, never one of `exclude`.
TYPED_TEST(StoredRuns, ThePreviousRunOfABranch) {
    auto& store = this->backend();
    auto on = [](std::string id, std::string branch, std::string started, bool dirty) {
        auto r = run_at(std::move(id), {bench("x", 1000)}, std::move(started));
        r.git.branch = std::move(branch);
        r.git.dirty = dirty;
        return r;
    };
    const auto head = on("head", "main", "2026-11-22T09:00:00Z", false);
    const auto key = head.fingerprint.comparison_key();
    EXPECT_FALSE(latest_run_on_branch(store, "main", key, SourceLines::Read).has_value())
        << "an empty history";
    record_run(store, on("old-main", "main", "2026-11-22T01:00:00Z", false));
    record_run(store, on("new-main", "main", "2026-11-22T03:00:00Z", false));
    record_run(store, on("dirty-main", "main", "2026-11-22T04:00:00Z", true));
    record_run(store, on("feature", "feature", "2026-11-22T05:00:00Z", false));
    auto other = on("other-valgrind", "main", "2026-11-22T06:00:00Z", false);
    other.fingerprint.valgrind_version = "3.22.0";
    record_run(store, other);
    record_run(store, head);

    EXPECT_EQ(latest_run_on_branch(store, "main", key, SourceLines::Read, {"head"})->id,
              "new-main");
    EXPECT_EQ(latest_run_on_branch(store, "main", key, SourceLines::Read, {"head", "new-main"})->id,
              "old-main");
    EXPECT_EQ(latest_run_on_branch(store, "main", key, SourceLines::Read)->id, "head");
    EXPECT_EQ(latest_run_on_branch(store, "feature", key, SourceLines::Read)->id, "feature");
    EXPECT_EQ(
        latest_run_on_branch(store, "main", other.fingerprint.comparison_key(), SourceLines::Read)
            ->id,
        "other-valgrind");
    EXPECT_FALSE(latest_run_on_branch(store, "nobody", key, SourceLines::Read).has_value());

    // Past commits backfilled after "head": never its previous run, while main has its own.
    for (const auto* id : {"backfill-1", "backfill-2"}) {
        auto past = on(id, "main", "2026-11-22T10:00:00Z", false);
        past.recorded_by = std::string(kRecordedByBackfill);
        record_run(store, past);
    }
    EXPECT_EQ(latest_run_on_branch(store, "main", key, SourceLines::Read, {"head"})->id,
              "new-main");
    EXPECT_EQ(latest_run_on_branch(store, "main", key, SourceLines::Read)->id, "head");
    auto only = on("backfill-only", "release", "2026-11-22T10:00:00Z", false);
    only.recorded_by = std::string(kRecordedByBackfill);
    record_run(store, only);
    EXPECT_EQ(latest_run_on_branch(store, "release", key, SourceLines::Read)->id, "backfill-only")
        << "a branch of backfilled runs only";
}

TYPED_TEST(StoredRuns, TheCleanRunAtACommitIsCompletedFromIt) {
    auto& store = this->backend();
    const auto a = run_at("a", {bench("x", 1000), bench("y", 10)}, "2026-11-22T01:00:00Z");
    const auto a2 = run_at("a2", {bench("w", 7)}, "2026-11-22T01:30:00Z");
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.git.dirty = true;
    for (const auto& r : {a, a2, b})
        record_run(store, r);
    const auto clean = clean_run_at_commit(store, *a.git.commit, SourceLines::Read);
    ASSERT_TRUE(clean.has_value());
    EXPECT_EQ(clean->id, "a2") << "the dirty one is newer";
    ASSERT_EQ(clean->benchmarks.size(), 3u);
    EXPECT_EQ(clean->benchmarks[1].name, "x");
    EXPECT_EQ(clean->benchmarks[1].cost, a.benchmarks[0].cost) << "never the dirty run's";
    EXPECT_FALSE(clean_run_at_commit(store, "0000", SourceLines::Read).has_value());
}

}  // namespace cgbench::history
