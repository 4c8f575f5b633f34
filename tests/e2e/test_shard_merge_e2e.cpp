// Sharding a suite over CI jobs and merging the shards back: the merge equals the unsharded run.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

fs::path five_benchmarks(const fs::path& dir) {
    std::string text;
    for (const auto& [name, args] :
         std::vector<std::pair<std::string, std::string>>{{"parse/small", "\"1000\""},
                                                          {"parse/large", "\"3000\""},
                                                          {"walk", "\"2000\", \"slow\""},
                                                          {"a-first", "\"1500\""},
                                                          {"zeta", "\"2500\""}}) {
        text += fmt::format("[[bench]]\nname = \"{}\"\ncommand = [\"{}\", {}]\n\n", name,
                            program("workload"), args);
    }
    return write_suite(dir, text);
}

}  // namespace

TEST(ShardMergeE2E, ShardsMergedEqualTheUnshardedRun) {
    const auto dir = scratch("shard-merge");
    const auto suite = five_benchmarks(dir).string();
    // A database of its own: the whole run recorded first balances every shard by its costs.
    const auto db = (dir / "history.db").string();
    const auto whole = cgbench(
        {"run", "-q", "-j2", "--db", db, "--suite", suite, "--out", (dir / "whole.json").string()});
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    const auto a = read_json(dir / "whole.json");
    std::vector<std::string> merge = {"merge", "-q",    "--db",
                                      db,      "--out", (dir / "merged.json").string()};
    std::size_t measured = 0;
    for (int k = 1; k <= 3; ++k) {
        const auto out = (dir / fmt::format("shard{}.json", k)).string();
        // Shards 1 and 2 from --shard, shard 3 the way GitLab's `parallel: 3` says it.
        const auto r = k < 3 ? cgbench({"run", "-q", "--db", db, "--suite", suite, "--shard",
                                        fmt::format("{}/3", k), "--out", out})
                             : cgbench({"run", "-q", "--db", db, "--suite", suite, "--out", out},
                                       {.env = {{"CI_NODE_INDEX", "3"}, {"CI_NODE_TOTAL", "3"}}});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto part = read_json(out);
        EXPECT_EQ(part["run"]["shard"], fmt::format("{}/3", k));
        // Balanced by the whole run's costs, not by the shard runs recorded in between.
        EXPECT_EQ(part["run"]["shard_balance"], "history run " + a["run"]["id"].get<std::string>());
        EXPECT_GE(part["benchmarks"].size(), 1u);
        measured += part["benchmarks"].size();
        merge.push_back(out);
    }
    EXPECT_EQ(measured, 5u);
    const auto m = cgbench(merge);
    ASSERT_EQ(m.exit_code, 0) << m.err;
    const auto b = read_json(dir / "merged.json");
    EXPECT_EQ(benchmarks_without_wall_time(a), benchmarks_without_wall_time(b));
    EXPECT_EQ(a["run"]["fingerprint"]["key"], b["run"]["fingerprint"]["key"]);
    EXPECT_NE(a["run"]["id"], b["run"]["id"]);
    EXPECT_FALSE(b["run"].contains("shard"));
    // The merged run is in the history: whole run, three shards, the merge.
    const auto h = cgbench({"history", "--db", db, "--format", "json"});
    ASSERT_EQ(h.exit_code, 0) << h.err;
    EXPECT_NE(h.out.find(b["run"]["id"].get<std::string>()), std::string::npos) << h.out;
}

TEST(ShardMergeE2E, MergeRefusesMismatchedShards) {
    const auto dir = scratch("merge-mismatch");
    const auto suite = five_benchmarks(dir).string();
    const auto one = (dir / "one.json").string();
    const auto two = (dir / "two.json").string();
    ASSERT_EQ(cgbench({"run", "-q", "--suite", suite, "--shard", "1/2", "--out", one}).exit_code,
              0);
    ASSERT_EQ(cgbench({"run", "-q", "--suite", suite, "--shard", "2/2", "--out", two}).exit_code,
              0);
    const auto out = dir / "merged.json";

    const auto dup = cgbench({"merge", one, two, one, "--out", out.string()});
    EXPECT_EQ(dup.exit_code, 2) << dup.err;
    EXPECT_NE(dup.err.find("benchmark measured twice"), std::string::npos) << dup.err;

    auto doc = read_json(two);
    doc["run"]["fingerprint"]["geometry"]["LL"] = "4194304,16,64";
    doc["run"]["fingerprint"]["cpu_baseline"] = "native";
    const auto edited = dir / "edited.json";
    std::ofstream(edited) << doc.dump();
    const auto fp = cgbench({"merge", one, edited.string(), "--out", out.string()});
    EXPECT_EQ(fp.exit_code, 2) << fp.err;
    EXPECT_NE(fp.err.find("measured differently: geometry:"), std::string::npos) << fp.err;
    EXPECT_NE(fp.err.find("CPU baseline: portable vs native"), std::string::npos) << fp.err;
    EXPECT_FALSE(fs::exists(out));

    const auto missing = cgbench({"merge", one, (dir / "nope.json").string()});
    EXPECT_EQ(missing.exit_code, 2) << missing.err;
}

TEST(ShardMergeE2E, AnEmptyShardMeasuresNothing) {
    const auto dir = scratch("shard-empty");
    write_suite(
        dir, fmt::format("[[bench]]\nname = \"only\"\ncommand = [\"{}\"]\n", program("workload")));
    const auto r =
        cgbench({"run", "--shard", "2/2", "--out", (dir / "out.json").string()}, {.cwd = dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("shard 2/2 has no benchmarks"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out.json"));
}

}  // namespace cgbench::e2e
