// Hardening, the history database (reliability audit 2, D01-D04, N02, N04): a read-only copy
// shows what its WAL holds, --db follows no link another user planted, a read-only file system
// is named, a report stays a size a browser opens, and prune takes only real dates.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <fstream>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using json = nlohmann::json;

// Writes `n` runs of `doc` (ids PREFIX-0..., started on successive days of 2025) into `dir`.
void write_runs(const fs::path& dir, json doc, const std::string& prefix, int n) {
    fs::create_directories(dir);
    for (int i = 0; i < n; ++i) {
        doc["run"]["id"] = fmt::format("{}-{}", prefix, i);
        doc["run"]["started"] = fmt::format("2025-01-{:02}T00:00:00Z", i + 1);
        std::ofstream(dir / fmt::format("{}-{}.json", prefix, i)) << doc.dump();
    }
}

}  // namespace

TEST(Hardening, D01_AReadOnlyCopyShowsTheRunsItsWalHolds) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to read the copy as another user";
    const auto dir = scratch("hardening-d01");
    const auto doc = measured_ir(dir);
    const auto db = dir / "h.db";
    write_runs(dir / "first", doc, "first", 3);
    ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), (dir / "first").string()}).exit_code,
              0);
    // Another connection stays open: the next runs stay in the WAL file, not checkpointed.
    sqlite_store::Database holder(db, sqlite_store::Database::Mode::Existing);
    ASSERT_EQ(holder.query_int("SELECT COUNT(*) FROM runs"), 3);
    write_runs(dir / "more", doc, "more", 4);
    ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), (dir / "more").string()}).exit_code, 0);
    ASSERT_GT(fs::file_size(db.string() + "-wal"), 0u);
    const auto rodir = dir / "rodir";
    fs::create_directories(rodir);
    fs::copy_file(db, rodir / "h.db");
    fs::copy_file(db.string() + "-wal", rodir / "h.db-wal");
    fs::permissions(dir, fs::perms(0755));
    fs::permissions(rodir, fs::perms(0555));
    const auto r =
        run_cgbench({"history", "--db", (rodir / "h.db").string(), "-n", "100", "--format", "json"},
                    {.uid = 65534});
    fs::permissions(rodir, fs::perms::owner_all);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out).size(), 7u) << r.out;
    EXPECT_FALSE(fs::exists(rodir / "h.db-shm")) << "the read-only directory was written";
}

TEST(Hardening, D02_DbFollowsNoLinkOfAnotherUser) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a link of another user";
    const auto dir = scratch("hardening-d02");
    const auto target = dir / "victim" / "created.db";
    fs::create_directories(target.parent_path());
    const auto link = dir / "shared-history.db";
    fs::create_symlink(target, link);
    ASSERT_EQ(::lchown(link.c_str(), 65534, 65534), 0);
    const auto marker = dir / "ran";
    const auto r =
        cgbench({"run", "-q", "--db", link.string(), "--", program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("is a symbolic link of another user (uid 65534)"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(target)) << "the database was created through the link";
    EXPECT_FALSE(fs::exists(marker)) << "measured before refusing the database";
    // Beside the database too: SQLite would open a planted -wal through the link.
    fs::remove(link);
    const auto db = dir / "h.db";
    fs::create_symlink(target, db.string() + "-wal");
    ASSERT_EQ(::lchown((db.string() + "-wal").c_str(), 65534, 65534), 0);
    const auto w = cgbench({"history", "--db", db.string()});
    EXPECT_EQ(w.exit_code, 2) << w.err;
    EXPECT_FALSE(fs::exists(target));
    // One's own link to a database is followed.
    fs::remove(db.string() + "-wal");
    write_runs(dir / "runs", measured_ir(dir), "r", 1);
    const auto real = dir / "real.db";
    ASSERT_EQ(cgbench({"import", "-q", "--db", real.string(), (dir / "runs").string()}).exit_code,
              0);
    const auto own = dir / "own.db";
    fs::create_symlink(real, own);
    const auto o = cgbench({"history", "--db", own.string()});
    EXPECT_EQ(o.exit_code, 0) << o.err;
}

TEST(Hardening, D03_AReadOnlyFileSystemIsNamedForWrites) {
    const auto dir = scratch("hardening-d03");
    const auto doc = measured_ir(dir);
    write_runs(dir / "runs", doc, "r", 2);
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "ro", "size=4m", [&](const fs::path& ro) {
        Checks c;
        const auto db = ro / "h.db";
        const auto i = cgbench({"import", "-q", "--db", db.string(), (dir / "runs").string()});
        c.expect(i.exit_code == 0, "import: " + i.err);
        c.expect(::mount(nullptr, ro.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0,
                 "cannot remount read-only");
        const auto h = cgbench({"history", "--db", db.string()});
        c.expect(h.exit_code == 0, "history: " + h.err);
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"prune", "--db", db.string(), "--keep-last", "1"},
                 {"import", "--db", db.string(), (dir / "runs").string()}}) {
            const auto r = cgbench(args);
            c.expect(r.exit_code == 4,
                     args[0] + ": exit " + std::to_string(r.exit_code) + ": " + r.err);
            c.expect(r.err.find("is on a read-only file system") != std::string::npos,
                     args[0] + ": " + r.err);
        }
        return c.failures();
    }));
}

TEST(Hardening, D04_AReportShowsAtMostItsLimitOfBenchmarks) {
    const auto dir = scratch("hardening-d04");
    auto doc = measured_ir(dir);
    const auto bench = doc["benchmarks"][0];
    doc["benchmarks"] = json::array();
    for (int i = 0; i < 1500; ++i) {
        auto b = bench;
        b["name"] = fmt::format("bench/{:04}", i);
        doc["benchmarks"].push_back(b);
    }
    write_runs(dir / "runs", doc, "big", 2);
    const auto db = dir / "h.db";
    ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), (dir / "runs").string()}).exit_code, 0);
    const auto html = dir / "r.html";
    const auto r = cgbench({"report", "--db", db.string(), "--html", html.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("shows 1000 of 1500 benchmarks"), std::string::npos) << r.err;
    const auto page = util::read_file(html);
    EXPECT_NE(page.find("500 more benchmarks are not shown"), std::string::npos);
    EXPECT_EQ(page.find("bench/1400"), std::string::npos) << "a benchmark beyond the limit";
    const auto small = cgbench(
        {"report", "-q", "--db", db.string(), "--html", html.string(), "--max-benchmarks", "10"});
    ASSERT_EQ(small.exit_code, 0) << small.err;
    EXPECT_LT(fs::file_size(html), page.size() / 20);
}

TEST(Hardening, N02_PruneTakesOnlyARealDateUpToToday) {
    const auto dir = scratch("hardening-n02");
    write_runs(dir / "runs", measured_ir(dir), "r", 5);
    const auto db = dir / "h.db";
    ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), (dir / "runs").string()}).exit_code, 0);
    for (const std::string date : {"2026-13-45", "2025-02-30", "2025-04-31", "9999-99-99",
                                   "0000-00-00", "zzzz-zz-zz", "2025-31-01"}) {
        const auto r = cgbench({"prune", "--db", db.string(), "--older-than", date});
        EXPECT_EQ(r.exit_code, 2) << date << ": " << r.out << r.err;
        EXPECT_NE(r.err.find("--older-than '" + date + "' is not a date"), std::string::npos)
            << r.err;
    }
    const auto future = cgbench({"prune", "--db", db.string(), "--older-than", "2999-01-01"});
    EXPECT_EQ(future.exit_code, 2) << future.err;
    EXPECT_NE(future.err.find("is in the future"), std::string::npos) << future.err;
    EXPECT_EQ(history_runs(db), 5u) << "a run was removed";
    const auto dry =
        cgbench({"prune", "--db", db.string(), "--older-than", "2999-01-01", "--dry-run"});
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    const auto real = cgbench({"prune", "-q", "--db", db.string(), "--older-than", "2025-01-03",
                               "--branch", "(no branch)"});
    EXPECT_EQ(real.exit_code, 0) << real.err;
}

TEST(Hardening, N04_KeepLastZeroSaysWhatIsWrong) {
    const auto r = cgbench({"prune", "--keep-last", "0"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("'0' is not a whole number of at least 1"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("179769"), std::string::npos) << r.err;
}

}  // namespace cgbench::e2e
