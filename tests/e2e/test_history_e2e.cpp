// The history database end to end: every `cgbench run` is recorded, `cgbench history` reads
// it back, and the database survives Ctrl-C, damage, newer versions and concurrent writers.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "sqlite_store/schema.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

Result run_into(const fs::path& db, std::vector<std::string> args) {
    std::vector<std::string> all = {"run", "-q", "--db", db.string()};
    all.insert(all.end(), args.begin(), args.end());
    return cgbench(all);
}

std::size_t stored_runs(const fs::path& db) {
    auto store = sqlite_store::SqliteHistory::open_existing(db);
    return store ? store->run_count() : 0;
}

// Runs cgbench in the background (fork + exec) and returns its pid.
pid_t start_cgbench(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {CGBENCH_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::vector<char*> c;
        for (auto& a : argv)
            c.push_back(a.data());
        c.push_back(nullptr);
        ::execv(c[0], c.data());
        ::_exit(127);
    }
    return pid;
}

}  // namespace

TEST(HistoryE2E, EveryRunIsRecordedAndShown) {
    const auto db = scratch("history-basic") / "history.db";
    ASSERT_EQ(run_into(db, {"--name", "w", "--", program("workload"), "2000"}).exit_code, 0);
    ASSERT_EQ(run_into(db, {"--name", "w", "--", program("workload"), "2000", "slow"}).exit_code,
              0);
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--name", "w", "--", program("workload"), "2000"})
                  .exit_code,
              0);
    EXPECT_EQ(stored_runs(db), 2u) << "--no-db stores nothing";

    const auto series = cgbench({"history", "w", "--db", db.string(), "--format", "json"});
    ASSERT_EQ(series.exit_code, 0) << series.err;
    const auto doc = nlohmann::json::parse(series.out);
    ASSERT_EQ(doc.size(), 2u);
    EXPECT_TRUE(doc[0]["change"].is_null());
    const double base = doc[0]["cost"].get<double>();
    const double head = doc[1]["cost"].get<double>();
    EXPECT_GT(head, base) << "slow does 10% more work";
    EXPECT_DOUBLE_EQ(doc[1]["change"].get<double>(), (head - base) / base);

    const auto text = cgbench({"history", "w", "--db", db.string()});
    EXPECT_NE(text.out.find("w: 2 results"), std::string::npos) << text.out;
    const auto runs = cgbench({"history", "--db", db.string(), "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(runs.out).size(), 2u);
    const auto unknown = cgbench({"history", "nope", "--db", db.string()});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("no results for benchmark 'nope'"), std::string::npos);
    EXPECT_EQ(cgbench({"history", "--db", (db.parent_path() / "none.db").string()}).exit_code, 2);
}

TEST(HistoryE2E, DefaultDatabaseLivesInDotCgbench) {
    const auto dir = scratch("history-default");
    const auto r = cgbench({"run", "-q", "--", program("workload"), "2000"},
                           {.unset = {"CGBENCH_DB"}, .cwd = dir.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(stored_runs(dir / ".cgbench" / "history.db"), 1u);
}

TEST(HistoryE2E, FailedBenchmarksAreStoredMarked) {
    const auto db = scratch("history-failed") / "history.db";
    EXPECT_EQ(run_into(db, {"--name", "bad", "--", program("exit_with"), "3"}).exit_code, 3);
    const auto doc = nlohmann::json::parse(
        cgbench({"history", "bad", "--db", db.string(), "--format", "json"}).out);
    ASSERT_EQ(doc.size(), 1u);
    EXPECT_EQ(doc[0]["status"], "failed");
    EXPECT_TRUE(doc[0]["cost"].is_null());
}

TEST(HistoryE2E, InterruptedRunLeavesTheDatabaseExactlyAsBefore) {
    const auto dir = scratch("history-sigint");
    const auto db = dir / "history.db";
    ASSERT_EQ(run_into(db, {"--name", "w", "--", program("workload"), "2000"}).exit_code, 0);
    const std::string before = util::read_file(db);
    const auto pidfile = dir / "child.pid";
    const pid_t pid = start_cgbench({"run", "-q", "--db", db.string(), "--",
                                     program("spawn_and_sleep"), pidfile.string(), "30"});
    ASSERT_GT(pid, 0);
    // Midway: the measured program is running (it wrote its child's pid).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(pidfile) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(fs::exists(pidfile)) << "the program never started";
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_EQ(util::read_file(db), before) << "the database file changed";
    EXPECT_FALSE(fs::exists(fs::path(db.string() + "-wal")) &&
                 fs::file_size(fs::path(db.string() + "-wal")) > 0)
        << "something was written to the WAL";
    EXPECT_EQ(stored_runs(db), 1u);
}

TEST(HistoryE2E, DamagedDatabaseIsRefusedBeforeMeasuringAndLeftAlone) {
    const auto dir = scratch("history-corrupt");
    const auto db = dir / "history.db";
    const std::string garbage = "not a database at all\n" + std::string(3000, 'z');
    std::ofstream(db, std::ios::binary) << garbage;
    const auto marker = dir / "ran";
    const auto r = run_into(db, {"--", program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("not a cgbench history database, or damaged"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(db.string()), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "measured before checking the database";
    EXPECT_EQ(util::read_file(db), garbage);
    EXPECT_EQ(cgbench({"history", "--db", db.string()}).exit_code, 4);
    EXPECT_EQ(cgbench({"compare", "--db", db.string(), "some-run-id"}).exit_code, 4);
    EXPECT_EQ(util::read_file(db), garbage);
}

TEST(HistoryE2E, NewerSchemaIsRefusedAndLeftAlone) {
    const auto dir = scratch("history-newer");
    const auto db = dir / "history.db";
    ASSERT_EQ(run_into(db, {"--", program("workload"), "2000"}).exit_code, 0);
    {
        sqlite_store::Database(db, sqlite_store::Database::Mode::Existing)
            .exec("PRAGMA user_version = 42");
    }
    const std::string before = util::read_file(db);
    const auto r = run_into(db, {"--", program("workload"), "2000"});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find(fmt::format("schema version 42, newer than this cgbench understands ({})",
                                     sqlite_store::kSchemaVersion)),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("upgrade cgbench"), std::string::npos) << r.err;
    EXPECT_EQ(cgbench({"history", "--db", db.string()}).exit_code, 4);
    EXPECT_EQ(util::read_file(db), before);
}

TEST(HistoryE2E, EightProcessesTenRunsEachLoseNothing) {
    // Eight concurrent chains of real cgbench processes, each recording ten runs into one
    // database that none of them finds existing at the start.
    const auto db = scratch("history-concurrent") / "history.db";
    constexpr int kProcesses = 8;
    constexpr int kRuns = 10;
    std::vector<std::vector<Result>> results(kProcesses);
    std::vector<std::thread> threads;
    for (int p = 0; p < kProcesses; ++p) {
        threads.emplace_back([&, p] {
            for (int i = 0; i < kRuns; ++i) {
                results[p].push_back(run_into(db, {"--weights", "ir", "--name", "concurrent", "--",
                                                   program("workload"), "100"}));
            }
        });
    }
    for (auto& t : threads)
        t.join();
    for (const auto& chain : results) {
        for (const auto& r : chain) {
            EXPECT_EQ(r.exit_code, 0) << r.err;
            EXPECT_EQ(r.err.find("locked"), std::string::npos) << r.err;
        }
    }
    EXPECT_EQ(stored_runs(db), static_cast<std::size_t>(kProcesses * kRuns));
    const auto series = cgbench({"history", "concurrent", "--db", db.string(), "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(series.out).size(),
              static_cast<std::size_t>(kProcesses * kRuns));
}

}  // namespace cgbench::e2e
