// Lines per branch, epochs and changes: nothing is compared across a fingerprint change.

#include <gtest/gtest.h>

#include "history/lines.hpp"
#include "history_fixtures.hpp"

namespace cgbench::history {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::operator+;

TEST(HistoryLines, EpochsAndChangesStopAtAFingerprintChange) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(b.add_run());
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    for (int i = 0; i < 3; ++i)
        runs.push_back(b.add_run());
    b.series("bench", runs, {1000, 1010, 1010, 2000, 2020, 2020});
    const auto h = b.take();
    const auto& points = h.series[0].results;
    const auto epochs = epochs_of(h, points);
    ASSERT_EQ(epochs.size(), 2u);
    EXPECT_EQ(epochs[0].first, 0u);
    EXPECT_EQ(epochs[0].last, 2u);
    EXPECT_EQ(epochs[1].first, 3u);
    EXPECT_EQ(epochs[1].fingerprint, 1u);
    const auto changes = changes_of(h, points);
    EXPECT_FALSE(changes[0]);
    EXPECT_NEAR(*changes[1], 0.01, 1e-12);
    EXPECT_FALSE(changes[3]) << "no change across the epochs: +98% would be meaningless";
    EXPECT_NEAR(*changes[4], 0.01, 1e-12);
}

TEST(HistoryLines, ChangesSkipFailedResults) {
    const auto h = HistoryBuilder::simple({100, std::nullopt, 110});
    const auto changes = changes_of(h, h.series[0].results);
    EXPECT_FALSE(changes[1]);
    EXPECT_NEAR(*changes[2], 0.1, 1e-12);
}

TEST(HistoryLines, DefaultBranch) {
    HistoryBuilder b;
    b.add_run("feature");
    b.add_run("trunk");
    b.add_run("trunk");
    EXPECT_EQ(default_branch(b.get(), std::nullopt), "trunk") << "the most runs";
    b.add_run("master");
    EXPECT_EQ(default_branch(b.get(), std::nullopt), "master");
    b.add_run("main");
    EXPECT_EQ(default_branch(b.get(), std::nullopt), "main");
    EXPECT_EQ(default_branch(b.get(), std::string("feature")), "feature");
    EXPECT_EQ(default_branch(History{}, std::nullopt), "");
}

TEST(HistoryLines, TheDefaultBranchComesFirstThenAsFirstMeasured) {
    HistoryBuilder b;
    const auto r0 = b.add_run("zeta");
    const auto r1 = b.add_run("alpha");
    const auto r2 = b.add_run("main");
    const auto r3 = b.add_run("");  // recorded without a branch
    b.series("bench", {r0, r1, r2, r3}, flat(4, 5));
    const auto h = b.take();
    const auto lines = lines_of(h, h.series[0], run_keys(h), "main");
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].branch, "main");
    EXPECT_EQ(lines[1].branch, "zeta");
    EXPECT_EQ(lines[2].branch, "alpha");
    EXPECT_EQ(lines[3].branch, kNoBranch);
}

TEST(HistoryLines, EnvironmentClassesIgnoreWhatDoesNotMoveCounts) {
    HistoryBuilder b;
    b.change_fingerprint([](Fingerprint& f) { f.env_block_bytes = 8192; });
    b.change_fingerprint([](Fingerprint& f) { f.aslr = "enabled (personality() refused)"; });
    b.change_fingerprint([](Fingerprint& f) { f.loader_cache = "00000000000000cc"; });
    const auto classes = environment_classes(b.get());
    ASSERT_EQ(classes.size(), 4u);
    EXPECT_EQ(classes[1], classes[0]);
    EXPECT_EQ(classes[2], classes[0]);
    EXPECT_NE(classes[3], classes[0]) << "the loader cache moves start-up counts";
}

TEST(HistoryLines, RelativeChange) {
    EXPECT_FALSE(relative_change(0, 10));
    EXPECT_DOUBLE_EQ(*relative_change(200, 150), -0.25);
}

TEST(HistoryLines, BisectProbesAreOnNoLine) {
    // main measured at 3 commits; bisect probed two commits between (no branch), one of them
    // also on main's line, with other costs.
    HistoryBuilder b;
    const auto r0 = b.add_run("main");
    const auto probe = b.add_run("");
    const auto r1 = b.add_run("main");
    const auto again = b.add_run("", false, b.get().runs[r1].git.commit);
    const auto r2 = b.add_run("main");
    for (const auto r : {probe, again})
        b.get().runs[r].recorded_by = std::string(kRecordedByBisect);
    b.series("bench", {r0, probe, r1, again, r2}, {100, 150, 100, 170, 100});
    const auto h = b.take();
    const auto lines = lines_of(h, h.series[0], run_keys(h), "main");
    ASSERT_EQ(lines.size(), 1u) << "no (detached) line of probes";
    EXPECT_EQ(lines[0].branch, "main");
    ASSERT_EQ(lines[0].points.size(), 3u);
    for (const auto& p : lines[0].points)
        EXPECT_EQ(*p.cost, 100u) << "the probe at a commit of main replaced nothing";
    EXPECT_TRUE(lines[0].repeats.empty()) << "nor counted as a repeat";
    EXPECT_TRUE(dirty_results(h, h.series[0]).empty());
    EXPECT_FALSE(on_lines(h.runs[probe]));
    EXPECT_TRUE(on_lines(h.runs[r0]));
}

TEST(HistoryLines, ADetachedCheckoutIsALineOfItsOwn) {
    HistoryBuilder b;
    const auto r0 = b.add_run("main");
    const auto r1 = b.add_run("");
    b.series("bench", {r0, r1}, flat(2, 5));
    const auto h = b.take();
    const auto lines = lines_of(h, h.series[0], run_keys(h), "main");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[1].branch, "(detached)");
}

}  // namespace cgbench::history
