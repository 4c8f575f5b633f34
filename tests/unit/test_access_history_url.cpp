// The scheme table: a plain path or sqlite:PATH is a SQLite file, opened to read without
// creating it and to record as `cgbench run` does; memory: is a history in memory; anything
// else is refused in one line naming the schemes.

#include <gtest/gtest.h>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "history/stored_runs.hpp"
#include "run_fixtures.hpp"

namespace cgbench::access {

using namespace testing_fixtures;

TEST(HistoryUrl, APathOrSqlitePathIsASqliteFile) {
    const auto dir = fresh_dir("cgbench-url-sqlite");
    const auto path = dir / "sub" / "h.db";
    EXPECT_EQ(open_history(path.string(), Access::Read), nullptr) << "reading creates nothing";
    EXPECT_EQ(open_history("sqlite:" + path.string(), Access::Read), nullptr);
    EXPECT_FALSE(fs::exists(path));
    {
        const auto recording = open_history("sqlite:" + path.string(), Access::Record);
        ASSERT_NE(recording, nullptr);
        EXPECT_EQ(recording->name(), path.string());
        EXPECT_EQ(recording->unrecorded_directory(), path.parent_path());
        history::record_run(*recording, run("r1", {bench("x", 1000)}));
    }
    EXPECT_TRUE(fs::is_regular_file(path));
    const auto reading = open_history(path.string(), Access::Read);
    ASSERT_NE(reading, nullptr);
    EXPECT_EQ(reading->name(), path.string());
    EXPECT_EQ(reading->run_count(), 1u);
    EXPECT_THROW(open_history("sqlite:", Access::Read), UsageError);
    EXPECT_THROW(open_history(dir.string(), Access::Record), EnvironmentError)
        << "a directory is no database";
}

TEST(HistoryUrl, MemoryIsAnEmptyHistoryInMemory) {
    for (const auto access : {Access::Read, Access::Record}) {
        const auto h = open_history("memory:", access);
        ASSERT_NE(h, nullptr) << "memory: always exists";
        EXPECT_EQ(h->name(), "memory:");
        EXPECT_FALSE(h->unrecorded_directory().has_value());
        EXPECT_FALSE(h->stored_bytes().has_value());
        EXPECT_EQ(h->run_count(), 0u);
    }
    EXPECT_FALSE(fs::exists("memory:")) << "no file of that name";
    EXPECT_THROW(open_history("memory:x", Access::Record), UsageError);
}

TEST(HistoryUrl, AnUnknownSchemeIsRefusedNamingTheKnownOnes) {
    try {
        open_history("mysql://db.example/history", Access::Record);
        FAIL() << "accepted an unknown scheme";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unknown history scheme 'mysql:'"), std::string::npos) << what;
        EXPECT_NE(what.find("sqlite:, memory:, postgresql:"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
    }
    EXPECT_FALSE(fs::exists("mysql:")) << "nothing created";
}

TEST(HistoryUrl, ALocationIsAFileOrAUrlAndShowsNoPassword) {
    const Location plain("sub/h.db");
    EXPECT_EQ(plain.scheme(), "");
    EXPECT_EQ(plain.file(), fs::path("sub/h.db"));
    EXPECT_EQ(plain.absolute("/w").url(), "/w/sub/h.db");
    const Location sqlite("sqlite:h.db");
    EXPECT_EQ(sqlite.scheme(), "sqlite:");
    EXPECT_EQ(sqlite.file(), fs::path("h.db"));
    EXPECT_EQ(sqlite.absolute("/w").url(), "sqlite:/w/h.db");
    EXPECT_EQ(Location("C:/h.db").scheme(), "") << "one letter is a drive, not a scheme";
    EXPECT_EQ(Location("memory:").file(), std::nullopt);
    const Location pg("postgresql://u:pw@h:1/d?password=pw2&sslmode=require");
    EXPECT_EQ(pg.scheme(), "postgresql:");
    EXPECT_EQ(pg.file(), std::nullopt);
    EXPECT_EQ(pg.absolute("/w"), pg) << "a URL is not made a path";
    EXPECT_EQ(pg.shown(), "postgresql://u@h:1/d?sslmode=require");
    EXPECT_EQ(fmt::format("{}", pg), pg.shown());
    EXPECT_EQ(Location("a\tb").shown(), "a\\x09b") << "printable";
    try {
        open_history("mysql://u:pw@db.example/history", Access::Read);
        FAIL() << "accepted an unknown scheme";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()).find("pw"), std::string::npos) << e.what();
    }
}

TEST(HistoryUrl, OpeningForARunOrForTheResolver) {
    EXPECT_EQ(open_history_for_run(std::nullopt), nullptr) << "--no-db";
    EXPECT_FALSE(history_source(std::nullopt).has_value());
    const auto path = fresh_dir("cgbench-url-source") / "h.db";
    const auto source = history_source(path.string());
    ASSERT_TRUE(source.has_value());
    EXPECT_EQ(source->name, path.string());
    EXPECT_EQ(source->open(), nullptr) << "opened when needed, to read";
    EXPECT_FALSE(fs::exists(path));
    EXPECT_NE(open_history_for_run(path.string()), nullptr);
    EXPECT_TRUE(fs::exists(path));
    EXPECT_NE(source->open(), nullptr);
}

}  // namespace cgbench::access
