// What the PostgreSQL history adds to the contract every backend keeps (test_history_backend
// runs that on it too): projects kept apart in one server, many writers at once, a connection
// lost mid-batch, schema versions, bad URLs and passwords, never a password in a message.
// Against the test suite's own server (pg_fixtures.hpp); the cases skip when it is not running.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "access/history_url.hpp"
#include "access/run_import.hpp"
#include "backend_fixtures.hpp"
#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "history/stored_runs.hpp"
#include "postgres_store/pg.hpp"
#include "postgres_store/pg_copy.hpp"
#include "postgres_store/pg_history.hpp"
#include "postgres_store/pg_schema.hpp"

namespace cgbench::postgres_store {

using namespace testing_fixtures;
using history::Access;

namespace {

class PostgresStore : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!server_.skip.empty()) GTEST_SKIP() << server_.skip;
    }
    std::string project(const std::string& name) {
        return project_url(
            server_.url,
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
                name);
    }
    // A database of its own (for schema cases), dropped at the end.
    std::string fresh_database() {
        Connection admin(parse_location(server_.url));
        const std::string name = fmt::format("t{}_{}", ::getpid(), databases_.size());
        admin.exec("DROP DATABASE IF EXISTS " + name);
        admin.exec("CREATE DATABASE " + name);
        databases_.push_back(name);
        const auto slash = server_.url.rfind('/');
        return server_.url.substr(0, slash + 1) + name;
    }
    void TearDown() override {
        if (databases_.empty()) return;
        Connection admin(parse_location(server_.url));
        for (const auto& d : databases_)
            admin.exec("DROP DATABASE IF EXISTS " + d + " WITH (FORCE)");
    }
    std::string password() const {
        const auto colon = server_.url.find(':', 13);
        return server_.url.substr(colon + 1, server_.url.find('@') - colon - 1);
    }

    TestServer server_ = test_server();
    std::vector<std::string> databases_;
};

RunResult small_run(const std::string& id, std::uint64_t cost) {
    return run(id, {bench("a", cost), bench("b", cost + 1)});
}

}  // namespace

TEST_F(PostgresStore, ProjectsInOneServerAreKeptApart) {
    const auto one = access::open_history(project("one"), Access::Record);
    const auto two = access::open_history(project("two"), Access::Record);
    const auto in_one = small_run("20261122T031500Z-00000001", 100);
    const auto in_two = small_run("20261122T031500Z-00000001", 300);
    history::record_run(*one, in_one);
    history::record_run(*two, small_run("20261122T031500Z-00000002", 200));
    // One run id in two projects: two runs.
    history::record_run(*two, in_two);
    EXPECT_EQ(one->run_count(), 1u);
    EXPECT_EQ(two->run_count(), 2u);
    EXPECT_EQ(history::run_by_id(*one, in_one.id)->benchmarks[0].cost, in_one.benchmarks[0].cost);
    EXPECT_EQ(history::run_by_id(*two, in_two.id)->benchmarks[0].cost, in_two.benchmarks[0].cost);
    EXPECT_NE(in_one.benchmarks[0].cost, in_two.benchmarks[0].cost);
    EXPECT_FALSE(history::run_by_id(*one, "20261122T031500Z-00000002").has_value());
    const auto h = one->load_history(history::NameFilter{});
    ASSERT_EQ(h.runs.size(), 1u);
    ASSERT_EQ(h.series.size(), 2u);
    EXPECT_EQ(h.series[0].results.size(), 1u);
    // A project never recorded is no history to read.
    EXPECT_EQ(access::open_history(project("three"), Access::Read), nullptr);
}

TEST_F(PostgresStore, ThirtyTwoWritersAtOnceLoseNothing) {
    const auto url = project("many");
    access::open_history(url, Access::Record);  // the schema exists; the writers race on runs
    constexpr int kWriters = 32, kRuns = 5;
    std::atomic<int> failures{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
        writers.emplace_back([&, w] {
            try {
                const auto h = access::open_history(url, Access::Record);
                for (int r = 0; r < kRuns; ++r) {
                    history::record_run(*h,
                                        small_run(fmt::format("20261122T031500Z-{:04}{:04}", w, r),
                                                  static_cast<std::uint64_t>(1000 * w + r)));
                }
            } catch (const std::exception& e) {
                ADD_FAILURE() << e.what();
                ++failures;
            }
        });
    }
    for (auto& t : writers)
        t.join();
    EXPECT_EQ(failures, 0);
    const auto h = access::open_history(url, Access::Read);
    EXPECT_EQ(h->run_count(), static_cast<std::size_t>(kWriters * kRuns));
    const auto all = h->load_history(history::NameFilter{});
    ASSERT_EQ(all.series.size(), 2u);
    EXPECT_EQ(all.series[0].results.size(), static_cast<std::size_t>(kWriters * kRuns));
}

TEST_F(PostgresStore, SchemaMigrationRacesEndWithOneSchema) {
    const auto url = fresh_database() + "?project=p";
    std::atomic<int> failures{0};
    std::vector<std::thread> openers;
    for (int i = 0; i < 8; ++i) {
        openers.emplace_back([&] {
            try {
                access::open_history(url, Access::Record);
            } catch (const std::exception& e) {
                ADD_FAILURE() << e.what();
                ++failures;
            }
        });
    }
    for (auto& t : openers)
        t.join();
    EXPECT_EQ(failures, 0);
    Connection c(parse_location(url));
    EXPECT_EQ(pg_schema_version(c), kPgSchemaVersion);
}

TEST_F(PostgresStore, ALostConnectionMidBatchStoresNothing) {
    const auto url = project("lost");
    const auto h = access::open_history(url, Access::Record);
    auto& pg = dynamic_cast<PgHistory&>(*h);
    const auto pid = pg.connection().exec("SELECT pg_backend_pid()").int64(0, 0);
    {
        auto batch = h->begin_batch();
        batch->add(small_run("20261122T031500Z-00000001", 1));
        // The server ends the connection, as when it is stopped or the network fails.
        Connection killer(parse_location(server_.url));
        killer.exec("SELECT pg_terminate_backend($1)", {std::to_string(pid)});
        try {
            batch->add(small_run("20261122T031500Z-00000002", 2));
            batch->commit();
            ADD_FAILURE() << "a batch committed on a lost connection";
        } catch (const EnvironmentError& e) {
            EXPECT_NE(std::string(e.what()).find("connection"), std::string::npos) << e.what();
        }
    }
    const auto read = access::open_history(url, Access::Read);
    // The project exists (recorded on opening) and holds no run.
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->run_count(), 0u);
    // The next batch connects again: a run measured while the server restarted is recorded.
    history::record_run(*h, small_run("20261122T031500Z-00000003", 3));
    EXPECT_EQ(read->run_count(), 1u);
}

// Rows come through a binary COPY one at a time, as the server sends them: every row once,
// in order, integers of each width (negative too), text and NULLs read in place; an error
// after some rows, or a handler that throws, ends the reading and leaves the connection
// usable, outside any transaction.
TEST_F(PostgresStore, CopiedRowsComeInOrderAndAFailureLeavesTheConnectionUsable) {
    Connection c(parse_location(server_.url));
    const int n = 20007;
    std::int64_t expected = 1;
    c.copy_out(
        fmt::format("SELECT g, -g::bigint * 1000000000000, 'n' || g, "
                    "NULLIF(g % 3, 0)::smallint, {} FROM generate_series(1, {}) g ORDER BY g",
                    c.literal("it's \\ \"quoted\""), n),
        [&](const CopyRow& r) {
            ASSERT_EQ(r.size(), 5);
            ASSERT_EQ(r.int64(0), expected);
            ASSERT_EQ(r.int64(1), -expected * 1000000000000);
            ASSERT_EQ(r.text(2), "n" + std::to_string(expected));
            ASSERT_EQ(r.int64(3),
                      expected % 3 == 0 ? std::nullopt : std::optional<std::int64_t>(expected % 3));
            ASSERT_EQ(r.text(4), "it's \\ \"quoted\"");
            ++expected;
        });
    EXPECT_EQ(expected, n + 1);
    int rows = 0;
    c.copy_out("SELECT 1 WHERE false", [&](const CopyRow&) { ++rows; });
    EXPECT_EQ(rows, 0) << "no row: the header and the trailer only";
    // Division by zero at row 10001: the rows before it may have come, then the error.
    EXPECT_THROW(c.copy_out("SELECT 1 / (g - 10001) FROM generate_series(1, 20000) g",
                            [&](const CopyRow&) { ++rows; }),
                 EnvironmentError);
    EXPECT_LE(rows, 10000);
    EXPECT_THROW(c.copy_out("SELECT g FROM generate_series(1, 1000000) g",
                            [](const CopyRow&) { throw Interrupted(2); }),
                 Interrupted);
    EXPECT_EQ(c.exec("SELECT 41 + 1").int64(0, 0), 42);
    EXPECT_EQ(c.exec("SELECT now() = statement_timestamp()").text(0, 0), "t");  // no transaction
}

TEST_F(PostgresStore, ANewerSchemaIsRefusedAndLeftAlone) {
    const auto url = fresh_database() + "?project=p";
    access::open_history(url, Access::Record);
    Connection c(parse_location(url));
    c.exec("UPDATE cgbench.meta SET value = '99' WHERE key = 'schema_version'");
    for (const auto access : {Access::Record, Access::Read}) {
        try {
            access::open_history(url, access);
            ADD_FAILURE() << "a newer schema was opened";
        } catch (const EnvironmentError& e) {
            EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(c.exec("SELECT value FROM cgbench.meta WHERE key = 'schema_version'").text(0, 0),
              "99");
}

TEST_F(PostgresStore, AForeignCgbenchSchemaIsRefused) {
    const auto url = fresh_database();
    Connection(parse_location(url)).exec("CREATE SCHEMA cgbench; CREATE TABLE cgbench.x (a int)");
    EXPECT_THROW(access::open_history(url + "?project=p", Access::Record), EnvironmentError);
}

TEST_F(PostgresStore, AWrongPasswordIsAnEnvironmentErrorThatNeverShowsIt) {
    const std::string wrong = "not-the-password-x9";
    auto url = server_.url;
    url.replace(url.find(password()), password().size(), wrong);
    try {
        access::open_history(url + "?project=p", Access::Record);
        ADD_FAILURE() << "a wrong password was accepted";
    } catch (const EnvironmentError& e) {
        const std::string text = std::string(e.what()) + e.hint();
        EXPECT_EQ(text.find(wrong), std::string::npos) << text;
        EXPECT_NE(text.find("password authentication failed"), std::string::npos) << text;
    }
    const auto h = access::open_history(project("shown"), Access::Record);
    EXPECT_EQ(h->name().find(password()), std::string::npos) << h->name();
}

TEST_F(PostgresStore, ANoServerIsAnEnvironmentError) {
    // Port 1 on the loopback: nothing listens there.
    EXPECT_THROW(access::open_history("postgresql://u:secret@127.0.0.1:1/db", Access::Read),
                 EnvironmentError);
}

// Every run of `from` into `to`; how many were new.
std::size_t copy_history(history::HistoryBackend& from, history::HistoryBackend& to) {
    access::RunImporter importer(to);
    for (const auto& run : from.load_runs().runs)
        importer.import_run(from, run);
    importer.finish();
    return importer.committed_runs();
}

TEST_F(PostgresStore, ImportFromSqliteAndBackGivesTheSameRuns) {
    const auto dir = fresh_dir("cgbench-pg-import");
    const auto sqlite = access::open_history((dir / "a.db").string(), Access::Record);
    std::vector<RunResult> runs;
    for (int i = 0; i < 3; ++i) {
        auto r = rich_run(fmt::format("20261122T03150{}Z-0000000{}", i, i));
        r.started = fmt::format("2026-11-22T03:15:0{}Z", i);
        r.git.commit = std::string(40, static_cast<char>('a' + i));
        r.benchmarks[0].functions = stored_functions({"parse", "lex", "emit"}, 900);
        history::record_run(*sqlite, r);
        runs.push_back(r);
    }
    const auto pg = access::open_history(project("moved"), Access::Record);
    EXPECT_EQ(copy_history(*sqlite, *pg), 3u);
    EXPECT_EQ(copy_history(*sqlite, *pg), 0u) << "idempotent by run id";
    const auto back = access::open_history((dir / "b.db").string(), Access::Record);
    EXPECT_EQ(copy_history(*pg, *back), 3u);
    for (const auto& r : runs) {
        const auto in_pg = history::run_by_id(*pg, r.id);
        const auto in_back = history::run_by_id(*back, r.id);
        const auto in_a = history::run_by_id(*sqlite, r.id);
        ASSERT_TRUE(in_pg && in_back && in_a);
        expect_same_run(*in_pg, *in_a);
        expect_same_run(*in_back, *in_a);
        EXPECT_EQ(in_pg->benchmarks[0].functions, r.benchmarks[0].functions);
    }
    // The same fingerprints, keys and order.
    const auto a = sqlite->load_runs(), p = pg->load_runs();
    ASSERT_EQ(a.runs.size(), p.runs.size());
    EXPECT_EQ(a.keys, p.keys);
    for (std::size_t i = 0; i < a.runs.size(); ++i)
        EXPECT_EQ(a.runs[i].id, p.runs[i].id);
}

// A database as schema version 1 left it, with `run` in project "p" recorded the way
// cgbench did then: its lines inside each result's document (as given, so that a case can
// store one no cgbench kept).
void write_pg_version_1(const std::string& url, const RunResult& run) {
    Connection c(parse_location(url));
    c.exec(pg_migrations().front().sql);
    c.exec("INSERT INTO cgbench.meta (key, value) VALUES ('schema_version', '1')");
    c.exec("INSERT INTO cgbench.projects (name) VALUES ('p')");
    RunResult head = run;
    head.benchmarks.clear();
    const auto seq = c.exec(
        "INSERT INTO cgbench.runs (project, id, started, recorded, git_commit, git_branch, git, "
        "recorded_by, fingerprint_key, fingerprint, document) VALUES (1, $1, $2, $2, $3, $4, $5, "
        "'', $6, $7, $8) RETURNING seq",
        {run.id, run.started, run.git.commit, run.git.branch, dump_json(to_json(run.git), -1),
         run.fingerprint.comparison_key(), dump_json(to_json(run.fingerprint), -1),
         dump_json(to_json(head), -1)});
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
        const auto& b = run.benchmarks[i];  // as given: a document cgbench could not convert
        c.exec(
            "INSERT INTO cgbench.results (run, position, project, name, status, cost, functions, "
            "data) VALUES ($1, $2, 1, $3, $4, $5, 0, $6)",
            {std::string(seq.text(0, 0)), std::to_string(i), b.name,
             std::string(to_string(b.status)), std::to_string(b.cost), dump_json(to_json(b), -1)});
    }
}

TEST_F(PostgresStore, Version1LinesMoveToTheirTableAndReadBackTheSame) {
    const auto url = fresh_database();
    auto r = rich_run("20261122T031500Z-00000009");
    for (std::uint32_t i = 0; i < 3; ++i) {
        LineResult l{"src/p.c", i ? "parse" : kHostile, 10 + i, i ? "x \\ \"q\";" : "", {}, 90 - i};
        l.events.set(metrics::Event::Ir, 50 - i);
        r.benchmarks[0].lines.push_back(l);
    }
    r.benchmarks[1].lines = {r.benchmarks[0].lines[1]};
    r.benchmarks[1].lines[0].events.set(metrics::Event::D1mr, 1);  // not convertible: kept
    write_pg_version_1(url, r);
    const auto expect_read_back = [&](history::HistoryBackend& h) {
        const auto loaded = history::run_by_id(h, r.id);
        ASSERT_TRUE(loaded.has_value());
        expect_same_run(*loaded, r);
        for (std::size_t i = 0; i < r.benchmarks.size(); ++i)
            EXPECT_EQ(loaded->benchmarks[i].lines, r.benchmarks[i].lines) << i;
    };
    expect_read_back(*access::open_history(url + "?project=p", Access::Read));
    Connection c(parse_location(url));
    EXPECT_EQ(pg_schema_version(c), 1) << "a reader converts nothing";
    expect_read_back(*access::open_history(url + "?project=p", Access::Record));
    EXPECT_EQ(pg_schema_version(c), kPgSchemaVersion);
    EXPECT_EQ(c.exec("SELECT COUNT(*) FROM cgbench.result_lines").int64(0, 0), 3);
    EXPECT_EQ(c.exec("SELECT COUNT(*) FROM cgbench.line_texts").int64(0, 0), 1);
    EXPECT_EQ(
        c.exec("SELECT COUNT(*) FROM cgbench.results WHERE data LIKE '%\"lines\"%'").int64(0, 0), 1)
        << "only the document that could not be converted keeps its lines";
}

TEST_F(PostgresStore, FunctionsLeaveTheirDocumentsByteForByteAndReadBackTheSame) {
    const auto url = fresh_database();
    auto r = rich_run("20261122T031500Z-00000010");
    r.benchmarks[0].functions = stored_functions({"parse", kHostile}, 900);
    r.benchmarks[1].functions = stored_functions({"q\\\"x"}, 500);
    // Version 2 rewrites a document with lines through jsonb: its functions' keys reordered.
    for (std::uint32_t i = 0; i < 2; ++i) {
        LineResult l{"src/q.c", "q", 10 + i, "", {}, 90 - i};
        l.events.set(metrics::Event::Ir, 50 - i);
        r.benchmarks[1].lines.push_back(l);
    }
    write_pg_version_1(url, r);
    Connection c(parse_location(url));
    // A document whose functions come first, as cgbench never writes one: left as it is.
    auto first_bench = bench("first", 10);
    first_bench.functions = stored_functions({"f"}, 5);
    auto as_written = to_json(first_bench);
    nlohmann::ordered_json reordered{{"functions", as_written["functions"]}};
    as_written.erase("functions");
    reordered.update(as_written);
    const auto first = dump_json(reordered, -1);
    c.exec(
        "INSERT INTO cgbench.results (run, position, project, name, status, cost, functions, "
        "data) SELECT seq, 3, 1, 'first', 'ok', 1, 1, $1 FROM cgbench.runs",
        {first});
    const std::string before(
        c.exec("SELECT data FROM cgbench.results WHERE position = 0").text(0, 0));
    const auto loaded_before =
        history::run_by_id(*access::open_history(url + "?project=p", Access::Read), r.id);
    ASSERT_TRUE(loaded_before.has_value());
    const auto after_migration = access::open_history(url + "?project=p", Access::Record);
    EXPECT_EQ(pg_schema_version(c), kPgSchemaVersion);
    const auto loaded = history::run_by_id(*after_migration, r.id);
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, *loaded_before);
    EXPECT_EQ(loaded->benchmarks[0].functions, r.benchmarks[0].functions);
    EXPECT_EQ(loaded->benchmarks[1].functions, r.benchmarks[1].functions);
    EXPECT_EQ(loaded->benchmarks[3].functions, first_bench.functions) << "from its document";
    const auto lists =
        c.exec("SELECT position, function_list, data FROM cgbench.results ORDER BY position");
    ASSERT_EQ(lists.rows(), 4);
    for (int i = 0; i < 2; ++i) {
        ASSERT_FALSE(lists.null(i, 1)) << i;
        EXPECT_TRUE(read_known_functions(lists.text(i, 1)).has_value())
            << "the fast reader reads either order: " << lists.text(i, 1);
        EXPECT_EQ(lists.text(i, 2).find("\"functions\""), std::string_view::npos) << i;
    }
    EXPECT_NE(lists.text(1, 1).find("{\"cost\""), std::string_view::npos) << "jsonb's order";
    EXPECT_TRUE(lists.null(2, 1)) << "a failed result keeps no functions";
    EXPECT_TRUE(lists.null(3, 1));
    EXPECT_EQ(lists.text(3, 2), first);
    // Nothing but the functions left the writer's document.
    std::string expected = before;  // NOLINT: a copy to edit
    const auto at = expected.find(",\"functions\":[");
    ASSERT_NE(at, std::string::npos);
    expected.erase(at, expected.find(']', expected.find("\"(other)\"")) + 1 - at);
    EXPECT_EQ(lists.text(0, 2), expected);
    // Read without functions: none, from the column or from a document.
    const auto bare = history::run_by_id(
        *after_migration, r.id, {history::SourceLines::Skip, history::KeptFunctions::Skip});
    for (const auto& b : bare->benchmarks)
        EXPECT_TRUE(b.functions.empty()) << b.name;
}

// Removing runs takes the names and line texts no other line uses with them, in any project,
// and leaves those still used.
TEST_F(PostgresStore, RemovingRunsTakesTheNamesAndTextsOnlyTheyUsed) {
    const auto url = fresh_database();
    const auto line = [](const std::string& function, const std::string& text) {
        LineResult l{"src/p.c", function, 7, text, {}, 9};
        l.events.set(metrics::Event::Ir, 5);
        return l;
    };
    auto gone = run_at("gone", {bench("x", 1000)}, "2026-11-22T01:00:00Z");
    gone.benchmarks[0].lines = {line("only_gone", "gone();"), line("shared", "shared();")};
    auto kept = run_at("kept", {bench("x", 1000)}, "2026-11-22T02:00:00Z");
    kept.benchmarks[0].lines = {line("shared", "shared();")};
    {
        const auto a = access::open_history(url + "?project=a", Access::Record);
        record_run(*a, gone);
        const auto b = access::open_history(url + "?project=b", Access::Record);
        record_run(*b, kept);
        const auto h = a->load_runs();
        EXPECT_EQ(a->remove_runs(h.runs).runs, 1u);
    }
    Connection c(parse_location(url));
    const auto names = c.exec("SELECT name FROM cgbench.symbols ORDER BY name");
    ASSERT_EQ(names.rows(), 1);
    EXPECT_EQ(names.text(0, 0), "shared");
    const auto texts = c.exec("SELECT text FROM cgbench.line_texts");
    ASSERT_EQ(texts.rows(), 1);
    EXPECT_EQ(texts.text(0, 0), "shared();");
    const auto b = access::open_history(url + "?project=b", Access::Read);
    EXPECT_EQ(history::run_by_id(*b, "kept")->benchmarks[0].lines, kept.benchmarks[0].lines);
}

// Needs no server.
TEST(PostgresUrl, BadSyntaxIsAUsageErrorThatNeverShowsThePassword) {
    for (const char* bad : {"postgresql://u:s3cret@host:port/db", "postgresql://u:s3cret@h/db?x=1",
                            "postgresql://u@h/db?project="}) {
        try {
            parse_location(bad);
            ADD_FAILURE() << bad;
        } catch (const UsageError& e) {
            const std::string text = std::string(e.what()) + e.hint();
            EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
        }
    }
    const auto l =
        parse_location("postgresql://ci:s3cret@db.example:5433/bench?project=org%2Frepo");
    EXPECT_EQ(l.shown, "postgresql://ci@db.example:5433/bench");
    EXPECT_EQ(l.project, "org/repo");
    EXPECT_EQ(l.conninfo.find("project"), std::string::npos);
}

TEST(PostgresUrl, TheDefaultProjectIsTheRemotesPath) {
    EXPECT_EQ(project_of_remote("https://github.com/org/repo.git"), "org/repo");
    EXPECT_EQ(project_of_remote("https://user:tok@gitlab.com/group/sub/repo"), "group/sub/repo");
    EXPECT_EQ(project_of_remote("git@github.com:org/repo.git"), "org/repo");
    EXPECT_EQ(project_of_remote("ssh://git@host:22/org/repo.git/"), "org/repo");
    EXPECT_EQ(project_of_remote("/srv/git/repo.git"), "srv/git/repo");
    EXPECT_EQ(project_of_remote(""), std::nullopt);
}

}  // namespace cgbench::postgres_store
