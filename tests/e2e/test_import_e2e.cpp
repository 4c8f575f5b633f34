// `cgbench import` end to end: result files of runs measured without a database (shards, a
// merged run) go into the history once, however often they are imported, and read back as
// the files say; invalid files are named and the rest is imported.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::e2e {

namespace {

std::size_t stored_runs(const fs::path& db) {
    auto store = sqlite_store::SqliteHistory::open_existing(db);
    return store ? store->run_count() : 0;
}

}  // namespace

TEST(ImportE2E, ShardsAndTheirMergeAreImportedOnce) {
    const auto dir = scratch("import-shards");
    const auto suite = write_suite(dir, fmt::format("[[bench]]\nname = \"a\"\ncommand = [\"{0}\", "
                                                    "\"1000\"]\n\n[[bench]]\nname = \"b\"\n"
                                                    "command = [\"{0}\", \"2000\"]\n",
                                                    program("workload")))
                           .string();
    const auto results = dir / "results";
    fs::create_directories(results / "shards");
    for (int k = 1; k <= 2; ++k) {
        const auto r = cgbench({"run", "-q", "--no-db", "--suite", suite, "--shard",
                                fmt::format("{}/2", k), "--out",
                                (results / "shards" / fmt::format("{}.json", k)).string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const auto merged = results / "all.json";
    const auto m = cgbench({"merge", "-q", "--no-db", "--out", merged.string(),
                            (results / "shards" / "1.json").string(),
                            (results / "shards" / "2.json").string()});
    ASSERT_EQ(m.exit_code, 0) << m.err;
    // Another cgbench document in the directory: skipped, not an error.
    const auto c = cgbench({"compare", "--no-db", "--format", "json", "--out",
                            (results / "compare.json").string(), merged.string(), merged.string()});
    ASSERT_EQ(c.exit_code, 0) << c.err;

    const auto db = dir / "history.db";
    const auto first = cgbench({"import", "--db", db.string(), results.string()});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    EXPECT_NE(first.out.find("imported 3 runs (4 results) into " + db.string()), std::string::npos)
        << first.out;
    EXPECT_NE(first.out.find("1 JSON file that is no result file skipped"), std::string::npos)
        << first.out;
    EXPECT_EQ(stored_runs(db), 3u);

    // Again: the directory, and the merged file named itself.
    const auto again = cgbench({"import", "--db", db.string(), results.string(), merged.string()});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    const auto merged_id = read_json(merged)["run"]["id"].get<std::string>();
    EXPECT_NE(again.out.find(fmt::format("{}: run {} is already in {}; not imported again",
                                         merged.string(), merged_id, db.string())),
              std::string::npos)
        << again.out;
    EXPECT_NE(again.out.find("imported 0 runs (0 results)"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("4 runs were already there"), std::string::npos) << again.out;
    EXPECT_EQ(stored_runs(db), 3u);

    // The stored merged run is the file: compare by run id against the file changes nothing.
    const auto same = cgbench({"compare", "--db", db.string(), "--format", "json", merged_id,
                               merged.string()});
    ASSERT_EQ(same.exit_code, 0) << same.err;
    const auto h = cgbench({"history", "b", "--db", db.string(), "--format", "json"});
    ASSERT_EQ(h.exit_code, 0) << h.err;
    const auto series = nlohmann::json::parse(h.out);
    ASSERT_EQ(series.size(), 2u) << "shard 2 and the merge measured b";
    EXPECT_EQ(series[1]["cost"], read_json(merged)["benchmarks"][1]["cost"]);
}

TEST(ImportE2E, InvalidFilesAreNamedAndTheOthersImported) {
    const auto dir = scratch("import-invalid");
    const auto good = dir / "good.json";
    const auto r = cgbench({"run", "-q", "--no-db", "--out", good.string(), "--name", "w", "--",
                            program("workload"), "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ofstream(dir / "truncated.json") << "{\"schema\": \"cgbench-result/1\", \"run\": {";
    const auto db = dir / "h.db";
    const auto res = cgbench({"import", "--db", db.string(), (dir / "truncated.json").string(),
                              good.string()});
    EXPECT_EQ(res.exit_code, 2);
    EXPECT_NE(res.err.find("truncated.json: not valid JSON"), std::string::npos) << res.err;
    EXPECT_NE(res.err.find("1 of 2 files not imported"), std::string::npos) << res.err;
    EXPECT_NE(res.out.find("imported 1 run (1 result)"), std::string::npos) << res.out;
    EXPECT_EQ(stored_runs(db), 1u);

    const auto no_db = cgbench({"import", "--no-db", good.string()});
    EXPECT_EQ(no_db.exit_code, 2);
    EXPECT_NE(no_db.err.find("--no-db"), std::string::npos) << no_db.err;
    const auto missing = cgbench({"import", "--db", db.string(), (dir / "nope.json").string()});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("nope.json does not exist"), std::string::npos) << missing.err;
}

}  // namespace cgbench::e2e
