// Schema creation and the refusals: newer versions, other programs' databases, garbage. A
// refused file is never changed.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "base/errors.hpp"
#include "history/stored_runs.hpp"
#include "run_fixtures.hpp"
#include "sqlite_store/schema.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::sqlite_store {

using namespace testing_fixtures;

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

namespace {

// A new database at `version` of the schema, as cgbench left it then, with no runs.
Database database_at(const fs::path& path, int version) {
    Database db(path, Database::Mode::Create);
    for (const auto& m : migrations()) {
        if (m.version <= version) db.exec(m.sql);
    }
    db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
    db.exec(fmt::format("PRAGMA user_version = {}", version));
    return db;
}

// A database as `version` (2 to 4) of the schema left it: `run` recorded the way cgbench did
// then, its lists (functions before version 3, lines before 5) inside each result's document.
void write_old_version(const fs::path& path, int version, const RunResult& run) {
    auto db = database_at(path, version);
    auto r = db.prepare(
        "INSERT INTO runs (seq, id, started, recorded, git_commit, git_branch, git_dirty, "
        "fingerprint_key, fingerprint, warnings) VALUES (7, ?1, ?2, ?2, ?3, ?4, 0, ?5, ?6, '[]')");
    r.bind(1, run.id).bind(2, run.started).bind(3, run.git.commit).bind(4, run.git.branch);
    r.bind(5, run.fingerprint.comparison_key()).bind(6, dump_json(to_json(run.fingerprint), -1));
    r.run();
    auto s = db.prepare(
        "INSERT INTO results (run, position, name, status, tool, cost, data) "
        "VALUES (7, ?1, ?2, 'ok', 'cachegrind', 1, ?3)");
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
        s.reset();
        s.bind(1, static_cast<std::int64_t>(i)).bind(2, run.benchmarks[i].name);
        s.bind(3, dump_json(to_json(run.benchmarks[i]), -1));
        s.run();
    }
}

FunctionResult function(std::string file, std::string name, std::uint64_t cost,
                        std::optional<std::uint64_t> ir) {
    FunctionResult f{std::move(file), std::move(name), {}, cost};
    if (ir) f.events.set(metrics::Event::Ir, *ir);
    return f;
}

}  // namespace

TEST(Schema, Version2FunctionsMoveToTheirTableAndReadBackTheSame) {
    const auto path = fresh_dir("cgbench-schema-v2") / "h.db";
    auto v2 = run("v2-run", {bench("parse", 5000), bench(kHostile, 6000), bench("plain", 10)});
    v2.benchmarks[0].functions = {function("p.c", kHostile, 3000, 1500),
                                  function("p.c", "ctl\x01 \"q\" \\ caf\xc3\xa9", 2000, 900),
                                  function("???", "0x0000000000401000", 500, std::nullopt),
                                  function("", std::string(kOtherFunctions), 9, 4)};
    v2.benchmarks[1].functions = {function("p.c", kHostile, 6000, 3000),
                                  function("", std::string(kOtherFunctions), 1, 1)};
    // Not convertible (an event besides Ir): stays in the document, and reads back too.
    auto odd = bench("odd", 100);
    odd.functions = {function("o.c", "o", 100, 100)};
    odd.functions[0].events.set(metrics::Event::D1mr, 2);
    v2.benchmarks.push_back(odd);
    write_old_version(path, 2, v2);

    const auto expect_read_back = [&v2](SqliteHistory& store) {
        const auto loaded = history::run_by_id(store, "v2-run");
        ASSERT_TRUE(loaded.has_value());
        ASSERT_EQ(loaded->benchmarks.size(), v2.benchmarks.size());
        for (std::size_t i = 0; i < v2.benchmarks.size(); ++i) {
            EXPECT_EQ(loaded->benchmarks[i].functions, v2.benchmarks[i].functions) << i;
        }
        expect_same_run(*loaded, v2);
    };

    // A reader sees the run as it was recorded, and leaves the file as it found it: an older
    // cgbench must still be able to read it.
    const std::string before = util::read_file(path);
    {
        auto reader = SqliteHistory::open_existing(path);
        ASSERT_NE(reader, nullptr);
        expect_read_back(*reader);
    }
    EXPECT_EQ(util::read_file(path), before) << "a read-only command changed the database";
    {
        Database db(path, Database::Mode::ReadOnly);
        EXPECT_EQ(db.query_int("PRAGMA user_version"), 2);
    }

    // Opening it to record converts it.
    auto writer = SqliteHistory::open_for_recording(path);
    expect_read_back(*writer);

    Database db(path, Database::Mode::Existing);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM result_functions"), 4 + 2);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM symbols"), 4) << "the hostile name once";
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM results WHERE instr(data, 'functions') > 0"), 1)
        << "only the document that could not be converted keeps its functions";
}

TEST(Schema, Version3RunsReadWithoutGitFactsAndNewRunsKeepThem) {
    const auto path = fresh_dir("cgbench-schema-v3") / "h.db";
    const auto old = run("v3-run", {bench("parse", 5000)});
    {
        // Version 3 as cgbench left it, with a run recorded then.
        auto db = database_at(path, 3);
        auto r = db.prepare(
            "INSERT INTO runs (id, started, recorded, git_commit, git_branch, git_dirty, "
            "fingerprint_key, fingerprint, warnings) VALUES (?1, ?2, ?2, ?3, ?4, 0, ?5, ?6, "
            "'[]')");
        r.bind(1, old.id).bind(2, old.started).bind(3, old.git.commit).bind(4, old.git.branch);
        r.bind(5, old.fingerprint.comparison_key())
            .bind(6, dump_json(to_json(old.fingerprint), -1));
        r.run();
        auto b = db.prepare(
            "INSERT INTO results (run, position, name, status, tool, cost, data) VALUES "
            "((SELECT seq FROM runs), 0, 'parse', 'ok', 'cachegrind', 5000, ?1)");
        b.bind(1, dump_json(to_json(old.benchmarks[0]), -1));
        b.run();
    }
    {
        auto reader = SqliteHistory::open_existing(path);  // through a converted copy
        const auto h = reader->load_runs();
        ASSERT_EQ(h.runs.size(), 1u);
        EXPECT_FALSE(h.runs[0].git.commit_time.has_value());
        EXPECT_FALSE(h.runs[0].git.first_parent_depth.has_value());
        EXPECT_TRUE(h.runs[0].recorded_by.empty());
    }
    auto fresh = run("v4-run", {bench("parse", 5100)});
    fresh.git.commit_time = "2021-01-02T03:04:05Z";
    fresh.git.first_parent_depth = 2;
    fresh.git.parents = {*old.git.commit};
    fresh.recorded_by = "backfill";
    {
        auto writer = SqliteHistory::open_for_recording(path);
        history::record_run(*writer, fresh);
        expect_same_run(*history::run_by_id(*writer, "v3-run"), old);
        expect_same_run(*history::run_by_id(*writer, "v4-run"), fresh);
    }
    Database db(path, Database::Mode::ReadOnly);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM runs WHERE first_parent_depth IS NULL"), 1);
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

TEST(Schema, TheNextVersionIsRefusedToo) {
    // A database a later cgbench migrated past this one (say, with function storage changed
    // again) is never read or written by this one.
    const auto path = fresh_dir("cgbench-schema-next") / "h.db";
    {
        Database db(path, Database::Mode::Create);
        prepare_schema(db);
        db.exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion + 1));
    }
    const std::string before = util::read_file(path);
    EXPECT_THROW(SqliteHistory::open_existing(path), EnvironmentError);
    EXPECT_THROW(SqliteHistory::open_for_recording(path), EnvironmentError);
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

namespace {

LineResult stored_line(std::string function, std::uint32_t line, std::string text,
                       std::uint64_t cost) {
    LineResult l{"src/p.c", std::move(function), line, std::move(text), {}, cost};
    l.events.set(metrics::Event::Ir, cost / 2);
    return l;
}

}  // namespace

TEST(Schema, Version4LinesMoveToTheirTableAndReadBackTheSame) {
    const auto path = fresh_dir("cgbench-schema-v4") / "h.db";
    auto v4 = run("v4-run", {bench("parse", 5000), bench(kHostile, 6000), bench("plain", 10)});
    v4.benchmarks[0].lines = {stored_line(kHostile, 12, "x = \"q\" \\ caf\xc3\xa9;", 300),
                              stored_line("parse", 40, "", 200), stored_line("lex", 7, "y++;", 9)};
    v4.benchmarks[1].lines = {stored_line(kHostile, 12, "x = \"q\" \\ caf\xc3\xa9;", 600)};
    // Not convertible (an event besides Ir): stays in the document, and reads back too.
    auto odd = bench("odd", 100);
    odd.lines = {stored_line("o", 3, "o();", 100)};
    odd.lines[0].events.set(metrics::Event::D1mr, 2);
    v4.benchmarks.push_back(odd);
    write_old_version(path, 4, v4);

    const auto expect_read_back = [&v4](SqliteHistory& store) {
        const auto loaded = history::run_by_id(store, "v4-run");
        ASSERT_TRUE(loaded.has_value());
        ASSERT_EQ(loaded->benchmarks.size(), v4.benchmarks.size());
        for (std::size_t i = 0; i < v4.benchmarks.size(); ++i)
            EXPECT_EQ(loaded->benchmarks[i].lines, v4.benchmarks[i].lines) << i;
        expect_same_run(*loaded, v4);
    };
    const std::string before = util::read_file(path);
    {
        auto reader = SqliteHistory::open_existing(path);  // through a converted copy
        ASSERT_NE(reader, nullptr);
        expect_read_back(*reader);
    }
    EXPECT_EQ(util::read_file(path), before) << "a read-only command changed the database";
    {
        auto writer = SqliteHistory::open_for_recording(path);
        expect_read_back(*writer);
    }
    Database db(path, Database::Mode::ReadOnly);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM result_lines"), 3 + 1);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM line_texts"), 2) << "each text once, none empty";
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM symbols"), 3) << "the hostile name once";
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM results WHERE instr(data, '\"lines\"') > 0"), 1)
        << "only the document that could not be converted keeps its lines";
}

}  // namespace cgbench::sqlite_store
