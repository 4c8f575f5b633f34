// `cgbench import`'s store side: result files become stored runs equal to the files, a run id
// is stored once however often it is imported, directories are searched, batches commit
// whole runs, and invalid files are refused by the result file's own reader.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "access/run_import.hpp"
#include "base/errors.hpp"
#include "history/stored_runs.hpp"
#include "run_fixtures.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::access {

using namespace testing_fixtures;
using history::record_run;
using history::run_by_id;
using sqlite_store::Database;
using sqlite_store::SqliteHistory;

namespace {

fs::path write_run(const fs::path& path, const RunResult& r) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << dump_json(to_json(r));
    return path;
}

void write_text(const fs::path& path, std::string_view text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

RunResult two_benchmarks(std::string id) {
    return run(std::move(id), {bench("parse/small", 100000), bench(kHostile, 200000)});
}

}  // namespace

TEST(RunImport, AnImportedRunEqualsItsFile) {
    const auto dir = fresh_dir("cgbench-import-roundtrip");
    auto r = two_benchmarks("20261122T031500Z-00000001");
    r.benchmarks.push_back(failed_bench("broken"));
    r.shard = "1/2";
    const auto file = write_run(dir / "r.json", r);
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    RunImporter importer(*store);
    const auto imported = importer.import({file, false});
    importer.finish();
    EXPECT_EQ(imported.status, ImportedFile::Status::Added);
    EXPECT_EQ(imported.run_id, r.id);
    const auto loaded = run_by_id(*store, r.id);
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, load_result_file(file));
    EXPECT_EQ(importer.committed_runs(), 1u);
    EXPECT_EQ(importer.committed_results(), 3u);
}

TEST(RunImport, ImportingTwiceStoresOnce) {
    const auto dir = fresh_dir("cgbench-import-twice");
    const auto file = write_run(dir / "r.json", two_benchmarks("20261122T031500Z-00000002"));
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    {
        RunImporter first(*store);
        EXPECT_EQ(first.import({file, false}).status, ImportedFile::Status::Added);
        // The same file again in the same transaction, and a copy under another name.
        fs::copy_file(file, dir / "copy.json");
        EXPECT_EQ(first.import({file, false}).status, ImportedFile::Status::AlreadyStored);
        EXPECT_EQ(first.import({dir / "copy.json", false}).status,
                  ImportedFile::Status::AlreadyStored);
        first.finish();
    }
    RunImporter second(*store);
    const auto again = second.import({file, false});
    second.finish();
    EXPECT_EQ(again.status, ImportedFile::Status::AlreadyStored);
    ASSERT_TRUE(again.stored.has_value());
    EXPECT_EQ(again.stored->benchmarks, 2u);
    EXPECT_EQ(store->run_count(), 1u);
    EXPECT_EQ(second.committed_runs(), 0u);
}

TEST(RunImport, ARunRecordedByRunIsNotImportedAgain) {
    const auto dir = fresh_dir("cgbench-import-recorded");
    const auto r = two_benchmarks("20261122T031500Z-00000003");
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    record_run(*store, r);
    RunImporter importer(*store);
    EXPECT_EQ(importer.import({write_run(dir / "r.json", r), false}).status,
              ImportedFile::Status::AlreadyStored);
    importer.finish();
    EXPECT_EQ(store->run_count(), 1u);
    EXPECT_THROW(record_run(*store, r), EnvironmentError) << "an id is stored once";
}

TEST(RunImport, DirectoriesAreSearchedSortedAndHiddenOnesSkipped) {
    const auto dir = fresh_dir("cgbench-import-dirs");
    write_run(dir / "data" / "b" / "2.json", two_benchmarks("b2"));
    write_run(dir / "data" / "a.json", two_benchmarks("a"));
    write_run(dir / "data" / ".git" / "x.json", two_benchmarks("hidden"));
    write_text(dir / "data" / "notes.txt", "not json");
    write_run(dir / "single.txt", two_benchmarks("named"));
    const auto sources =
        import_sources({(dir / "data").string(), (dir / "single.txt").string()});
    ASSERT_EQ(sources.size(), 3u);
    EXPECT_EQ(sources[0].path, dir / "data" / "a.json");
    EXPECT_EQ(sources[1].path, dir / "data" / "b" / "2.json");
    EXPECT_TRUE(sources[0].found_in_directory);
    EXPECT_EQ(sources[2].path, dir / "single.txt") << "a file named itself, whatever its name";
    EXPECT_FALSE(sources[2].found_in_directory);
    EXPECT_THROW(import_sources({(dir / "missing").string()}), UsageError);
    EXPECT_THROW(import_sources({"/dev/null"}), UsageError);
}

TEST(RunImport, OtherJsonInADirectoryIsSkippedButRefusedWhenNamed) {
    const auto dir = fresh_dir("cgbench-import-other");
    write_text(dir / "compare.json", R"({"schema": "cgbench-compare/1", "benchmarks": []})");
    write_text(dir / "bencher.json", R"({"parse": {"cost": {"value": 1}}})");
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    RunImporter importer(*store);
    EXPECT_EQ(importer.import({dir / "compare.json", true}).status,
              ImportedFile::Status::NotAResult);
    EXPECT_EQ(importer.import({dir / "bencher.json", true}).status,
              ImportedFile::Status::NotAResult);
    EXPECT_THROW(importer.import({dir / "compare.json", false}), UsageError);
    importer.finish();
    EXPECT_EQ(store->run_count(), 0u);
}

TEST(RunImport, InvalidResultFilesAreRefusedWithTheReadersMessage) {
    const auto dir = fresh_dir("cgbench-import-invalid");
    auto doc = to_json(two_benchmarks("bad"));
    doc["benchmarks"][0]["events"]["Ir"] = -1;
    write_text(dir / "negative.json", doc.dump());
    write_text(dir / "truncated.json", dump_json(to_json(two_benchmarks("t"))).substr(0, 200));
    write_text(dir / "raw.json", "{\"schema\": \"cgbench-result/1\", \xEA}");
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    RunImporter importer(*store);
    for (const auto* name : {"negative.json", "truncated.json", "raw.json"}) {
        try {
            importer.import({dir / name, true});
            ADD_FAILURE() << name << " was accepted";
        } catch (const UsageError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(name), std::string::npos) << what;
            EXPECT_EQ(what.find('\xEA'), std::string::npos) << "raw bytes are escaped: " << what;
        }
    }
    importer.finish();
    EXPECT_EQ(store->run_count(), 0u);
}

TEST(RunImport, BatchesCommitWholeRunsAndAnUnfinishedBatchStoresNothing) {
    const auto dir = fresh_dir("cgbench-import-batches");
    std::vector<fs::path> files;
    for (int i = 0; i < 5; ++i) {
        files.push_back(write_run(dir / fmt::format("{}.json", i),
                                  two_benchmarks(fmt::format("run-{}", i))));
    }
    const auto store = SqliteHistory::open_for_recording(dir / "h.db");
    {
        // At most 4 results per transaction: two runs of two each.
        RunImporter importer(*store, {std::chrono::hours(1), 4});
        for (const auto& f : files)
            importer.import({f, false});
        EXPECT_EQ(importer.committed_runs(), 4u) << "the fifth run's batch is still open";
        EXPECT_EQ(importer.transactions(), 2u);
        // Destroyed without finish(), as on Ctrl-C: the open batch is rolled back.
    }
    EXPECT_EQ(store->run_count(), 4u);
    EXPECT_FALSE(run_by_id(*store, "run-4").has_value());
    Database db(dir / "h.db", Database::Mode::Existing);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM results"), 8) << "no run without its results";
    RunImporter rest(*store);
    for (const auto& f : files)
        rest.import({f, false});
    rest.finish();
    EXPECT_EQ(store->run_count(), 5u);
    EXPECT_EQ(rest.committed_runs(), 1u);
}

}  // namespace cgbench::access
