// The SQLite history: functions live in their own tables with names stored once, a run is
// recorded in one transaction, removal deletes the rows and the names no longer used, a read
// never creates a file, an unwritable one fails on opening, concurrent writers lose nothing.
// What every backend does alike is tested in test_history_backend*.cpp.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend_fixtures.hpp"
#include "base/errors.hpp"
#include "history/stored_runs.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::sqlite_store {

using namespace testing_fixtures;
using history::record_run;
using history::run_by_id;

namespace {

// A run whose results carry functions with hostile names, shared between its results.
RunResult run_with_functions(std::string id, std::uint64_t base) {
    auto r = rich_run(std::move(id));
    r.benchmarks[0].functions = stored_functions({"main", kHostile, "parse"}, base);
    r.benchmarks[1].functions = stored_functions({kHostile, "main"}, base + 1000);
    r.benchmarks[1].functions[1].events = {};  // a function without Ir reads back without it
    return r;
}

std::int64_t count(const std::filesystem::path& db, std::string_view sql) {
    Database d(db, Database::Mode::Existing);
    return d.query_int(sql);
}

}  // namespace

TEST(SqliteHistory, FunctionsRoundTripOutsideTheDocument) {
    const auto path = fresh_dir("cgbench-store-function-table") / "history.db";
    auto store = SqliteHistory::open_for_recording(path);
    const auto recorded = run_with_functions("run-f", 5000);
    record_run(*store, recorded);
    const auto loaded = run_by_id(*store, "run-f");
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, recorded);
    EXPECT_EQ(loaded->benchmarks[0].functions, recorded.benchmarks[0].functions);
    EXPECT_EQ(loaded->benchmarks[1].functions[0].name, kHostile);
    EXPECT_FALSE(loaded->benchmarks[1].functions[1].events.has(metrics::Event::Ir));
    EXPECT_TRUE(loaded->benchmarks[2].functions.empty());
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM result_functions"), 4 + 3);
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM results WHERE instr(data, 'functions') > 0"), 0)
        << "the documents no longer carry the functions";
}

TEST(SqliteHistory, SymbolsAreStoredOnce) {
    const auto path = fresh_dir("cgbench-store-symbols") / "history.db";
    auto store = SqliteHistory::open_for_recording(path);
    record_run(*store, run_with_functions("run-1", 5000));
    record_run(*store, run_with_functions("run-2", 6000));
    // main, the hostile name, parse and "(other)": the second result and the second run
    // add none.
    const auto symbols = count(path, "SELECT COUNT(*) FROM symbols");
    EXPECT_EQ(symbols, 4);
    EXPECT_EQ(count(path, "SELECT COUNT(DISTINCT symbol) FROM result_functions"), symbols);
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM result_functions"), 2 * 7);
    EXPECT_EQ(run_by_id(*store, "run-2")->benchmarks[1].functions[0].cost, 2 * 7000u);
}

TEST(SqliteHistory, RecordingIsAllOrNothing) {
    const auto path = fresh_dir("cgbench-store-atomic") / "history.db";
    auto store = SqliteHistory::open_for_recording(path);
    record_run(*store, rich_run("run-1"));
    {
        // Make the third result of the next run fail, after its run row and two results.
        Database db(path, Database::Mode::Existing);
        db.exec(
            "CREATE TRIGGER poison BEFORE INSERT ON results WHEN NEW.name = 'poison' "
            "BEGIN SELECT RAISE(ABORT, 'poisoned'); END");
    }
    auto r = run("run-2", {bench("parse/small", 1), bench("other", 2), bench("poison", 3)});
    EXPECT_THROW(record_run(*store, r), EnvironmentError);
    EXPECT_EQ(store->run_count(), 1u);
    EXPECT_EQ(store->load_history("parse/small").series.at(0).results.size(), 1u);
    EXPECT_TRUE(store->load_history("other").series.empty());
    // The same id twice is refused too, and changes nothing.
    EXPECT_THROW(record_run(*store, rich_run("run-1")), EnvironmentError);
    EXPECT_EQ(store->run_count(), 1u);
}

TEST(SqliteHistory, RemoveRunsDeletesTheRowsAndTheNamesNoLongerUsed) {
    const auto path = fresh_dir("cgbench-store-remove") / "h.db";
    auto store = SqliteHistory::open_for_recording(path);
    auto a = run_at("a", {bench("x", 1000), bench("y", 10)}, "2026-11-22T01:00:00Z");
    a.benchmarks[0].functions = stored_functions({"only-in-a", "other"}, 600);
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.git.dirty = true;
    for (const auto& r : {a, b})
        record_run(*store, r);

    const auto h = store->load_history([](std::string_view) { return true; });
    const auto removed = store->remove_runs({h.runs[0]});
    EXPECT_EQ(removed.runs, 1u);
    EXPECT_EQ(removed.results, 2u);
    EXPECT_EQ(removed.functions, a.benchmarks[0].functions.size());
    EXPECT_EQ(store->run_count(), 1u);
    EXPECT_FALSE(run_by_id(*store, "a").has_value());
    EXPECT_TRUE(run_by_id(*store, "b").has_value());
    Database db(path, Database::Mode::Existing);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM results"), 1);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM result_functions"), 0);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM symbols"), 0);
}

TEST(SqliteHistory, OpenExistingDoesNotCreate) {
    const auto path = fresh_dir("cgbench-store-existing") / "none.db";
    EXPECT_EQ(SqliteHistory::open_existing(path), nullptr);
    EXPECT_FALSE(fs::exists(path));
}

TEST(SqliteHistory, UnwritableDatabaseFailsOnOpen) {
    if (::geteuid() == 0) GTEST_SKIP() << "root can write read-only files";
    const auto path = fresh_dir("cgbench-store-readonly") / "h.db";
    { SqliteHistory::open_for_recording(path); }
    fs::permissions(path, fs::perms::owner_read);
    EXPECT_THROW(SqliteHistory::open_for_recording(path), EnvironmentError);
}

TEST(SqliteHistory, ConcurrentWritersLoseNothing) {
    // Eight processes record 25 runs each as fast as they can, all opening the database
    // (and racing to create its schema) at the same time.
    const auto path = fresh_dir("cgbench-store-concurrent") / "h.db";
    constexpr int kProcesses = 8;
    constexpr int kRuns = 25;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            int code = 0;
            try {
                auto store = SqliteHistory::open_for_recording(path);
                for (int i = 0; i < kRuns; ++i) {
                    record_run(*store, run(fmt::format("p{}-r{}", p, i),
                                           {bench("a", 1000), bench("b", 2000)}));
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer %d: %s\n", p, e.what());
                code = 1;
            }
            ::_exit(code);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed";
    }
    auto store = SqliteHistory::open_existing(path);
    ASSERT_NE(store, nullptr);
    EXPECT_EQ(store->run_count(), static_cast<std::size_t>(kProcesses * kRuns));
    EXPECT_EQ(store->load_history("b").series.at(0).results.size(),
              static_cast<std::size_t>(kProcesses * kRuns));
}

}  // namespace cgbench::sqlite_store
