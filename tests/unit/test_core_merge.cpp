#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "core/merge.hpp"

namespace cgbench {

namespace {

BenchmarkResult bench(const std::string& name, std::optional<std::size_t> position,
                      std::uint64_t ir = 100) {
    BenchmarkResult b;
    b.name = name;
    b.position = position;
    b.events.set(metrics::Event::Ir, ir);
    b.cost = ir;
    return b;
}

RunResult shard(std::string started, std::vector<BenchmarkResult> benchmarks) {
    RunResult run;
    run.id = "id-" + started;
    run.started = std::move(started);
    run.git.commit = "abc";
    run.git.branch = "main";
    run.fingerprint.geometry = valgrind::ci_default_geometry();
    run.fingerprint.weights = metrics::parse_weights("pythonspeed");
    run.fingerprint.cpu_baseline = "portable";
    run.benchmarks = std::move(benchmarks);
    return run;
}

std::string error_of(const std::vector<SourcedRun>& parts) {
    try {
        merge_runs(parts, "new");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

std::vector<std::string> names(const RunResult& run) {
    std::vector<std::string> out;
    for (const auto& b : run.benchmarks)
        out.push_back(b.name);
    return out;
}

}  // namespace

TEST(Merge, RestoresSuiteOrderAndTheEarliestStart) {
    const std::vector<SourcedRun> parts = {
        {"s1.json", shard("2026-01-01T10:00:05Z", {bench("z", 1), bench("a", 3)})},
        {"s2.json", shard("2026-01-01T10:00:01Z", {bench("m", 0)})},
        {"s3.json", shard("2026-01-01T10:00:09Z", {bench("b", 2)})},
    };
    const auto merged = merge_runs(parts, "merged-id");
    EXPECT_EQ(merged.run.id, "merged-id");
    EXPECT_EQ(merged.run.started, "2026-01-01T10:00:01Z");
    EXPECT_EQ(names(merged.run), (std::vector<std::string>{"m", "z", "b", "a"}));
    EXPECT_TRUE(merged.run.shard.empty());
    EXPECT_EQ(merged.run.git.commit, "abc");
    EXPECT_TRUE(merged.warnings.empty());
}

TEST(Merge, SortsByNameWithoutPositions) {
    const std::vector<SourcedRun> parts = {
        {"s1.json", shard("t", {bench("z", std::nullopt), bench("a", 3)})},
        {"s2.json", shard("t", {bench("m", std::nullopt)})},
    };
    EXPECT_EQ(names(merge_runs(parts, "x").run), (std::vector<std::string>{"a", "m", "z"}));
}

TEST(Merge, KeepsEachRunWideWarningOnce) {
    auto a = shard("t", {bench("a", 0)});
    auto b = shard("t", {bench("b", 1)});
    a.warnings = {"ASLR could not be disabled"};
    b.warnings = {"ASLR could not be disabled", "other"};
    const auto merged = merge_runs({{"a", a}, {"b", b}}, "x");
    EXPECT_EQ(merged.run.warnings,
              (std::vector<std::string>{"ASLR could not be disabled", "other"}));
}

TEST(Merge, RefusesDifferentFingerprints) {
    auto other = shard("t", {bench("b", 1)});
    other.fingerprint.geometry = valgrind::parse_geometry("LL=4194304,16,64");
    other.fingerprint.cpu_baseline = "native";
    const auto e = error_of({{"s1.json", shard("t", {bench("a", 0)})}, {"s2.json", other}});
    EXPECT_NE(e.find("s1.json and s2.json were measured differently"), std::string::npos) << e;
    EXPECT_NE(e.find("geometry:"), std::string::npos) << e;
    EXPECT_NE(e.find("CPU baseline: portable vs native"), std::string::npos) << e;
}

TEST(Merge, RefusesDuplicateNames) {
    const auto e = error_of({{"s1.json", shard("t", {bench("a", 0), bench("b", 1)})},
                             {"s2.json", shard("t", {bench("b", 1)})}});
    EXPECT_NE(e.find("benchmark measured twice: 'b' (s1.json and s2.json)"), std::string::npos)
        << e;
    EXPECT_NE(error_of({}).find("nothing to merge"), std::string::npos);
}

TEST(Merge, GitCommitsMustAgreeOtherFactsWarn) {
    auto other = shard("t", {bench("b", 1)});
    other.git.commit = "def";
    EXPECT_NE(error_of({{"s1.json", shard("t", {bench("a", 0)})}, {"s2.json", other}})
                  .find("s1.json measured commit abc, s2.json commit def"),
              std::string::npos);
    other.git.commit = "abc";
    other.git.branch = "HEAD";
    const auto merged =
        merge_runs({{"s1.json", shard("t", {bench("a", 0)})}, {"s2.json", other}}, "x");
    EXPECT_EQ(merged.run.git.branch, "main");
    ASSERT_EQ(merged.warnings.size(), 1u);
    EXPECT_NE(merged.warnings[0].find("s2.json"), std::string::npos);
    other.git.commit.reset();  // unknown in one shard: not a conflict
    EXPECT_EQ(merge_runs({{"s1.json", shard("t", {bench("a", 0)})}, {"s2.json", other}}, "x")
                  .run.git.commit,
              "abc");
}

TEST(Merge, ShardsMustBeAllOfOneSplit) {
    const auto part = [](std::string shard_text, std::string name, std::string balance = "names") {
        auto r = shard("t", {bench(std::move(name), 0)});
        r.shard = std::move(shard_text);
        r.shard_balance = std::move(balance);
        return r;
    };
    EXPECT_EQ(error_of({{"a", part("1/3", "a")}, {"b", part("2/3", "b")}, {"c", part("3/3", "c")}}),
              "no error");
    EXPECT_NE(
        error_of({{"a", part("1/3", "a")}, {"c", part("3/3", "c")}}).find("shard 2/3 is missing"),
        std::string::npos);
    EXPECT_NE(error_of({{"a", part("1/2", "a")}, {"b", part("1/2", "b")}}).find("given twice"),
              std::string::npos);
    EXPECT_NE(error_of({{"a", part("1/2", "a")}, {"b", part("2/3", "b")}}).find("one of 2"),
              std::string::npos);
    EXPECT_NE(error_of({{"a", part("1/2", "a")}, {"b", part("2/2", "b", "history run r1")}})
                  .find("may overlap or miss"),
              std::string::npos);
}

}  // namespace cgbench
