// Schema creation and the refusals: newer versions, other programs' databases, garbage. A
// refused file is never changed.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/errors.hpp"
#include "run_fixtures.hpp"
#include "store/schema.hpp"
#include "util/fs.hpp"

namespace cgbench::store {

using testing_fixtures::fresh_dir;

TEST(Schema, MigrationsAreOrderedAndEndAtTheCurrentVersion) {
    int previous = 0;
    for (const auto& m : migrations()) {
        EXPECT_EQ(m.version, previous + 1);
        previous = m.version;
    }
    EXPECT_EQ(previous, kSchemaVersion);
}

TEST(Schema, FreshFileGetsTheSchemaInWalMode) {
    const auto path = fresh_dir("cgbench-schema-fresh") / "h.db";
    Database db(path, Database::Mode::Create);
    prepare_schema(db);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("PRAGMA application_id"), kApplicationId);
    auto mode = db.prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.step());
    EXPECT_EQ(mode.text(0), "wal");
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('runs', 'results')"),
              2);
    // Preparing again is a no-op.
    prepare_schema(db);
    EXPECT_EQ(check_schema(db), kSchemaVersion);
}

TEST(Schema, AnOlderDatabaseIsMigratedKeepingItsRuns) {
    const auto path = fresh_dir("cgbench-schema-v1") / "h.db";
    {
        // A database as version 1 of the schema left it, with one run.
        Database db(path, Database::Mode::Create);
        db.exec(migrations().front().sql);
        db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
        db.exec("PRAGMA user_version = 1");
        db.exec(
            "INSERT INTO runs (id, started, recorded, fingerprint_key, fingerprint, warnings) "
            "VALUES ('old', 't', 't', 'k', '{}', '[]')");
    }
    Database db(path, Database::Mode::Existing);
    prepare_schema(db);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM runs WHERE id = 'old' AND shard IS NULL"), 1);
}

TEST(Schema, NewerVersionIsRefusedAndLeftUnchanged) {
    const auto path = fresh_dir("cgbench-schema-newer") / "h.db";
    {
        Database db(path, Database::Mode::Create);
        prepare_schema(db);
        db.exec("PRAGMA user_version = 99");
    }
    const std::string before = util::read_file(path);
    Database db(path, Database::Mode::Existing);
    try {
        prepare_schema(db);
        FAIL() << "accepted a newer schema";
    } catch (const EnvironmentError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path.string()), std::string::npos) << what;
        EXPECT_NE(what.find("schema version 99"), std::string::npos) << what;
        EXPECT_NE(what.find(fmt::format("({})", kSchemaVersion)), std::string::npos) << what;
        EXPECT_NE(e.hint().find("upgrade cgbench"), std::string::npos) << e.hint();
    }
    EXPECT_EQ(util::read_file(path), before);
}

TEST(Schema, AnotherProgramsDatabaseIsRefused) {
    const auto path = fresh_dir("cgbench-schema-foreign") / "other.db";
    {
        Database db(path, Database::Mode::Create);
        db.exec("CREATE TABLE contacts (name TEXT)");
    }
    const std::string before = util::read_file(path);
    Database db(path, Database::Mode::Existing);
    EXPECT_THROW(prepare_schema(db), EnvironmentError);
    EXPECT_EQ(util::read_file(path), before);

    const auto other = fresh_dir("cgbench-schema-app") / "app.db";
    {
        Database db2(other, Database::Mode::Create);
        db2.exec("PRAGMA application_id = 1234");
    }
    Database db2(other, Database::Mode::Existing);
    EXPECT_THROW(prepare_schema(db2), EnvironmentError);
}

TEST(Schema, GarbageIsRefusedAndLeftUnchanged) {
    const auto path = fresh_dir("cgbench-schema-garbage") / "h.db";
    const std::string garbage = "this is not an SQLite database\n" + std::string(5000, '\x01');
    std::ofstream(path, std::ios::binary) << garbage;
    {
        Database db(path, Database::Mode::Existing);
        EXPECT_THROW(prepare_schema(db), EnvironmentError);
    }
    EXPECT_EQ(util::read_file(path), garbage);
}

}  // namespace cgbench::store
