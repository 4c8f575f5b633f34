// Hardening, the history database (reliability audit D11, D13, D17 and rows F26, F30, F34,
// F35, M23, O15, O18): a lock held or a disk filled while a run is measured never costs the
// run; read-only commands neither write nor migrate; Ctrl-C ends a wait for the lock.

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <thread>

#include "base/errors.hpp"
#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "postgres_store/pg_schema.hpp"
#include "sqlite_store/schema.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

std::size_t stored_runs(const fs::path& db) {
    auto store = sqlite_store::SqliteHistory::open_existing(db);
    return store ? store->run_count() : 0;
}

// A FIFO the measured program reads (`workload 1000 stdin`): it runs until the test closes
// its writing end, which it can open only once cgbench is measuring.
fs::path make_fifo(const fs::path& dir) {
    const auto fifo = dir / "stdin.fifo";
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    return fifo;
}

std::vector<std::string> run_reading(const fs::path& fifo, std::vector<std::string> options) {
    // No native warm-up run: it would read the FIFO the measured run is to read.
    std::vector<std::string> args = {"run", "--name",  "w",          "--warmup",
                                     "0",   "--stdin", fifo.string()};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", program("workload"), "1000", "stdin"});
    return args;
}

// Opens the FIFO's writing end (returns once the measured program opened it) and returns it.
int wait_until_measuring(const fs::path& fifo) {
    return ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
}

// Returns once no thread of process `pid` has a child left (the measured run is over and
// cgbench is parsing or recording), or after `limit`.
void wait_until_childless(pid_t pid, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    const auto childless = [&] {
        std::error_code ec;
        for (const auto& task : fs::directory_iterator(fmt::format("/proc/{}/task", pid), ec)) {
            std::ifstream children(task.path() / "children");
            std::string first;
            if (children >> first) return false;
        }
        return true;
    };
    while (!childless() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace

TEST(Hardening, D11_LockHeldAtRecordingTimeIsWaitedFor) {
    const auto dir = scratch("hardening-d11-lock");
    const auto db = dir / "h.db";
    const auto fifo = make_fifo(dir);
    ASSERT_EQ(
        cgbench({"run", "-q", "--db", db.string(), "--", program("workload"), "100"}).exit_code, 0);
    // Not -q: the note that it waits is a warning, which -q silences.
    const auto r =
        run_cgbench(run_reading(fifo, {"--db", db.string()}), {.started = [&](pid_t pid) {
                        const int w = wait_until_measuring(fifo);
                        sqlite_store::Database holder(db, sqlite_store::Database::Mode::Existing);
                        sqlite_store::Transaction lock(holder);
                        ::close(w);  // the program ends; recording meets the lock
                        // Held from the end of the run, however long Valgrind took
                        // to finish on a loaded machine: long enough for the note
                        // that comes after 10 s of waiting.
                        wait_until_childless(pid, std::chrono::seconds(120));
                        std::this_thread::sleep_for(std::chrono::seconds(14));
                    }});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("waiting for the history database " + db.string()), std::string::npos)
        << r.err;
    EXPECT_GE(r.seconds, 14);
    EXPECT_EQ(stored_runs(db), 2u);
}

TEST(Hardening, D11_RecordingThatFailsKeepsTheRunForImport) {
    const auto dir = scratch("hardening-d11-full");
    const auto fifo = make_fifo(dir);
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "small", "size=1m", [&](const fs::path& small) {
        Checks c;
        const auto db = small / "h.db";
        const auto r = run_cgbench(run_reading(fifo, {"-q", "--db", db.string()}),
                                   {.cwd = dir.string(), .started = [&](pid_t) {
                                        const int w = wait_until_measuring(fifo);
                                        fill_filesystem(small);  // the disk fills meanwhile
                                        ::close(w);
                                    }});
        c.expect(r.exit_code == 4, "exit " + std::to_string(r.exit_code) + ": " + r.err);
        c.expect(r.err.find("no space left") != std::string::npos, r.err);
        const auto at = r.err.find("the run is kept in ");
        c.expect(at != std::string::npos && r.err.find("cgbench import") != std::string::npos,
                 "the message does not say where the run is: " + r.err);
        if (at == std::string::npos) return c.failures();
        const auto start = at + std::string("the run is kept in ").size();
        const fs::path kept = dir / r.err.substr(start, r.err.find(' ', start) - start);
        c.expect(fs::is_regular_file(kept), "no file " + kept.string());
        fs::remove(small / "filler");
        const auto i = run_cgbench({"import", "-q", "--db", db.string(), kept.string()});
        c.expect(i.exit_code == 0, "import: " + i.err);
        c.expect(stored_runs(db) == 1, "the kept run was not imported");
        return c.failures();
    }));
}

TEST(Hardening, D17_CtrlCEndsTheWaitForALockedDatabase) {
    const auto dir = scratch("hardening-d17");
    const auto db = dir / "h.db";
    ASSERT_EQ(
        cgbench({"run", "-q", "--db", db.string(), "--", program("workload"), "100"}).exit_code, 0);
    sqlite_store::Database holder(db, sqlite_store::Database::Mode::Existing);
    sqlite_store::Transaction lock(holder);
    const auto r = run_cgbench({"run", "-q", "--db", db.string(), "--", program("workload"), "100"},
                               {.started = [](pid_t pid) {
                                   std::this_thread::sleep_for(std::chrono::seconds(1));
                                   ::kill(pid, SIGINT);
                               }});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_LT(r.seconds, 5) << "Ctrl-C waited for the lock";
}

TEST(Hardening, I02_SigtermExits143) {
    const auto dir = scratch("hardening-i02");
    const auto fifo = make_fifo(dir);
    const auto r = run_cgbench(run_reading(fifo, {"-q", "--no-db"}), {.started = [&](pid_t pid) {
                                   const int w = wait_until_measuring(fifo);
                                   ::kill(pid, SIGTERM);
                                   std::this_thread::sleep_for(std::chrono::milliseconds(500));
                                   ::close(w);
                               }});
    EXPECT_EQ(r.exit_code, 143) << r.err;
    EXPECT_NE(r.err.find("interrupted by signal 15"), std::string::npos) << r.err;
}

TEST(Hardening, F30_ReadCommandsReadADatabaseInAReadOnlyDirectory) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to run cgbench as another user";
    const auto dir = scratch("hardening-f30");
    const auto rodir = dir / "rodir";
    fs::create_directories(rodir);
    const auto db = rodir / "h.db";
    const auto out = dir / "run.json";
    ASSERT_EQ(cgbench({"run", "-q", "--db", db.string(), "--out", out.string(), "--",
                       program("workload"), "1000"})
                  .exit_code,
              0);
    const auto id = read_json(out)["run"]["id"].get<std::string>();
    const auto writable = dir / "html";
    fs::create_directories(writable);
    fs::permissions(writable, fs::perms::all);
    fs::permissions(dir, fs::perms::all);
    fs::permissions(rodir, fs::perms(0555));
    const std::string before = util::read_file(db);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"history", "--db", db.string()},
             {"compare", "--db", db.string(), id, id},
             {"report", "--db", db.string(), "--html", (writable / "r.html").string()}}) {
        const auto r = run_cgbench(args, {.uid = 65534});
        EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    }
    EXPECT_EQ(util::read_file(db), before);
    fs::permissions(rodir, fs::perms::owner_all);
}

TEST(Hardening, F34_ReadingAnOlderDatabaseNeverMigratesIt) {
    const auto dir = scratch("hardening-f34");
    const auto db = dir / "v2.db";
    const auto result = dir / "r.json";
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--name", "w", "--out", result.string(), "--",
                       program("workload"), "1000"})
                  .exit_code,
              0);
    const auto doc = read_json(result);
    {  // a database as cgbench wrote it at schema version 2: functions inside each document
        sqlite_store::Database d(db, sqlite_store::Database::Mode::Create);
        d.exec("PRAGMA journal_mode = WAL");
        for (const auto& m : sqlite_store::migrations()) {
            if (m.version <= 2) d.exec(m.sql);
        }
        d.exec(fmt::format("PRAGMA user_version = 2; PRAGMA application_id = {}",
                           sqlite_store::kApplicationId));
        auto run = d.prepare(
            "INSERT INTO runs (id, started, recorded, fingerprint_key, fingerprint, warnings) "
            "VALUES (?1, ?2, ?2, ?3, ?4, '[]')");
        run.bind(1, doc["run"]["id"].get<std::string>())
            .bind(2, doc["run"]["started"].get<std::string>())
            .bind(3, doc["run"]["fingerprint"]["key"].get<std::string>())
            .bind(4, doc["run"]["fingerprint"].dump());
        run.run();
        const auto& b = doc["benchmarks"][0];
        auto result_row = d.prepare(
            "INSERT INTO results (run, position, name, status, tool, cost, ir, data) "
            "VALUES (1, 0, 'w', 'ok', 'cachegrind', ?1, ?2, ?3)");
        result_row.bind(1, b["cost"].get<std::int64_t>())
            .bind(2, b["events"]["Ir"].get<std::int64_t>())
            .bind(3, b.dump());
        result_row.run();
    }
    const std::string before = util::read_file(db);
    const auto h = cgbench({"history", "w", "--db", db.string(), "--format", "json"});
    ASSERT_EQ(h.exit_code, 0) << h.err;
    EXPECT_EQ(nlohmann::json::parse(h.out)[0]["cost"], doc["benchmarks"][0]["cost"]);
    EXPECT_NE(h.err.find("older cgbench (schema 2)"), std::string::npos) << h.err;
    const auto a =
        cgbench({"annotate", "--db", db.string(), doc["run"]["id"].get<std::string>(), "w"});
    EXPECT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(util::read_file(db), before) << "a read command changed the file";
    EXPECT_EQ(sqlite_store::Database(db, sqlite_store::Database::Mode::ReadOnly)
                  .query_int("PRAGMA user_version"),
              2);
    const auto v = cgbench({"--version"});
    EXPECT_NE(
        v.out.find(fmt::format("history database schema {} (SQLite), PostgreSQL schema {}",
                               sqlite_store::kSchemaVersion, postgres_store::kPgSchemaVersion)),
        std::string::npos)
        << v.out;
}

TEST(Hardening, F35_SchemaIsCheckedAgainUnderTheWriteLock) {
    const auto dir = scratch("hardening-f35");
    const auto db = dir / "h.db";
    auto store = sqlite_store::SqliteHistory::open_for_recording(db);
    {  // a newer cgbench migrates the file after this one opened it
        sqlite_store::Database newer(db, sqlite_store::Database::Mode::Existing);
        newer.exec(fmt::format("PRAGMA user_version = {}", sqlite_store::kSchemaVersion + 1));
    }
    RunResult run;
    run.id = "20261122T031500Z-0000f35f";
    run.started = "2026-11-22T03:15:00Z";
    try {
        history::record_run(*store, run);
        FAIL() << "recorded an old-format run into a newer database";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find("newer than this cgbench"), std::string::npos)
            << e.what();
    }
}

TEST(Hardening, F26_DamagedPageIsFoundBeforeMeasuring) {
    const auto dir = scratch("hardening-f26");
    const auto db = dir / "h.db";
    const auto result = dir / "r.json";
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--out", result.string(), "--", program("workload"),
                       "1000"})
                  .exit_code,
              0);
    auto doc = read_json(result);
    const auto bench = doc["benchmarks"][0];
    doc["benchmarks"] = nlohmann::json::array();
    for (int i = 0; i < 200; ++i) {
        auto b = bench;
        b["name"] = fmt::format("bench/{:03}", i);
        doc["benchmarks"].push_back(b);
    }
    for (int i = 0; i < 10; ++i) {
        doc["run"]["id"] = fmt::format("run-{}", i);
        std::ofstream(dir / fmt::format("r{}.json", i)) << doc.dump();
    }
    fs::remove(result);
    ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), dir.string()}).exit_code, 0);
    {  // random bytes over one page in the middle of the file
        std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
        const auto pages = fs::file_size(db) / 4096;
        ASSERT_GT(pages, 10u);
        f.seekp(static_cast<std::streamoff>(pages / 2 * 4096));
        std::mt19937 gen(26);
        for (int i = 0; i < 4096; ++i)
            f.put(static_cast<char>(gen()));
    }
    const auto marker = dir / "ran";
    const auto r =
        cgbench({"run", "-q", "--db", db.string(), "--", program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("damaged"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "measured before finding the damage";
}

TEST(Hardening, M23_DeviceAsDatabaseIsRefused) {
    const auto dir = scratch("hardening-m23");
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "dev", "size=1m", [&](const fs::path& dev) {
        Checks c;
        const auto null = dev / "null";
        if (!make_char_device(null, 1, 3)) return std::string("mknod failed");
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"run", "--db", null.string(), "--", program("workload"), "100"},
                 {"history", "--db", null.string()}}) {
            const auto r = run_cgbench(args);
            c.expect(r.exit_code == 4, args[0] + ": exit " + std::to_string(r.exit_code));
            c.expect(r.err.find("is not a regular file") != std::string::npos, r.err);
        }
        c.expect(is_char_device(null), "the device node changed");
        c.expect(!fs::exists(dev / "null-journal") && !fs::exists(dev / "null-wal"),
                 "SQLite files beside the device");
        return c.failures();
    }));
}

TEST(Hardening, O18_NewDatabaseOnAFullDiskSaysSoAndLeavesNothing) {
    const auto dir = scratch("hardening-o18");
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "small", "size=256k", [&](const fs::path& small) {
        Checks c;
        if (!fill_filesystem(small)) return std::string("cannot fill the tmpfs");
        const auto r = run_cgbench(
            {"run", "--db", (small / "h.db").string(), "--", program("workload"), "100"});
        c.expect(r.exit_code == 4, "exit " + std::to_string(r.exit_code));
        c.expect(r.err.find("no space left") != std::string::npos, r.err);
        c.expect(r.err.find("free some disk space") != std::string::npos, r.err);
        for (const auto& e : fs::directory_iterator(small)) {
            c.expect(e.path().filename() == "filler", "left behind: " + e.path().string());
        }
        return c.failures();
    }));
}

TEST(Hardening, O15_ANameThatIsNotUtf8IsOneNameEverywhere) {
    const auto dir = scratch("hardening-o15");
    const auto db = dir / "h.db";
    const auto out = dir / "r.json";
    const std::string raw_name = "bad\xff\xfename";
    const std::string shown = "bad\xEF\xBF\xBD\xEF\xBF\xBDname";  // U+FFFD twice
    const auto r =
        cgbench({"run", "-q", "--db", db.string(), "--out", out.string(), "--keep-raw",
                 (dir / "kr").string(), "--name", raw_name, "--", program("workload"), "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_json(out)["benchmarks"][0]["name"], shown);
    const auto h = cgbench({"history", shown, "--db", db.string(), "--format", "json"});
    ASSERT_EQ(h.exit_code, 0) << "the database stores another name: " << h.err;
    sqlite_store::Database d(db, sqlite_store::Database::Mode::ReadOnly);
    auto s = d.prepare("SELECT name FROM results");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(std::string(s.text(0)), shown);
}

}  // namespace cgbench::e2e
