// The SQLite RAII layer: statements, transactions, and errors that name the file.

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <fstream>

#include "base/errors.hpp"
#include "exec/interrupt.hpp"
#include "run_fixtures.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

using testing_fixtures::fresh_dir;
namespace fs = std::filesystem;

TEST(Sqlite, StatementsBindAndStep) {
    Database db(fresh_dir("cgbench-sqlite-basic") / "t.db", Database::Mode::Create);
    db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
    auto insert = db.prepare("INSERT INTO t VALUES (?1, ?2)");
    insert.bind(1, std::int64_t{7}).bind(2, std::string_view("x|y")).run();
    insert.reset();
    insert.bind(1, std::int64_t{8}).bind(2, std::optional<std::string>{}).run();
    auto select = db.prepare("SELECT a, b FROM t ORDER BY a");
    ASSERT_TRUE(select.step());
    EXPECT_EQ(select.int64(0), 7);
    EXPECT_EQ(select.text(1), "x|y");
    ASSERT_TRUE(select.step());
    EXPECT_FALSE(select.optional_text(1).has_value());
    EXPECT_FALSE(select.step());
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM t"), 2);
}

TEST(Sqlite, EmptyTextIsNotNull) {
    Database db(fresh_dir("cgbench-sqlite-empty") / "t.db", Database::Mode::Create);
    auto s = db.prepare("SELECT ?1 IS NULL");
    s.bind(1, std::string_view());
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), 0);
}

TEST(Sqlite, TransactionRollsBackUnlessCommitted) {
    Database db(fresh_dir("cgbench-sqlite-tx") / "t.db", Database::Mode::Create);
    db.exec("CREATE TABLE t (a INTEGER)");
    {
        Transaction tx(db);
        db.exec("INSERT INTO t VALUES (1)");
    }
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM t"), 0);
    {
        Transaction tx(db);
        db.exec("INSERT INTO t VALUES (1)");
        tx.commit();
    }
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM t"), 1);
}

TEST(Sqlite, ErrorsAreEnvironmentErrorsNamingTheFile) {
    const auto path = fresh_dir("cgbench-sqlite-err") / "t.db";
    Database db(path, Database::Mode::Create);
    try {
        db.exec("SELECT * FROM missing_table");
        FAIL() << "no error";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("missing_table"), std::string::npos) << e.what();
    }
}

TEST(Sqlite, MissingFileInExistingMode) {
    const auto path = fresh_dir("cgbench-sqlite-missing") / "none.db";
    EXPECT_THROW(Database(path, Database::Mode::Existing), EnvironmentError);
    EXPECT_FALSE(fs::exists(path));
}

TEST(Sqlite, GarbageFileIsReportedAsNotADatabase) {
    const auto path = fresh_dir("cgbench-sqlite-garbage") / "g.db";
    std::ofstream(path) << std::string(4096, 'x');
    Database db(path, Database::Mode::Existing);
    try {
        db.query_int("PRAGMA user_version");
        FAIL() << "no error";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find("not a cgbench history database"), std::string::npos)
            << e.what();
        EXPECT_NE(e.hint().find("never overwrites"), std::string::npos) << e.hint();
    }
}

TEST(Sqlite, LockHeldTooLongIsAClearError) {
    const auto path = fresh_dir("cgbench-sqlite-busy") / "t.db";
    Database holder(path, Database::Mode::Create);
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER)");
    Transaction held(holder);
    Database waiter(path, Database::Mode::Existing, 200);
    try {
        Transaction tx(waiter);
        FAIL() << "took a lock another connection holds";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find("still locked"), std::string::npos) << e.what();
    }
}

// Every command installs the signal handlers, so a long statement (a scan of every result, a
// VACUUM) must notice a signal itself: it ends as Interrupted (128 + the signal), not as a
// damaged database and not after minutes. In a child process: once interrupted, a process
// stays interrupted.
TEST(SqliteDeathTest, ASignalEndsALongStatement) {
    const auto path = fresh_dir("cgbench-sqlite-interrupt") / "t.db";
    const auto long_count = [&path] {
        Database db(path, Database::Mode::Create);
        exec::install_interrupt_handlers();
        ::raise(SIGINT);
        try {
            // Some seconds of work when nothing stops it.
            db.query_int(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                "WHERE x < 100000000) SELECT COUNT(*) FROM c");
        } catch (const Interrupted& e) {
            std::_Exit(e.signo() == SIGINT ? 130 : 1);
        } catch (const Error&) {
            std::_Exit(2);
        }
        std::_Exit(3);
    };
    EXPECT_EXIT(long_count(), ::testing::ExitedWithCode(130), "");
}

}  // namespace cgbench::sqlite_store
