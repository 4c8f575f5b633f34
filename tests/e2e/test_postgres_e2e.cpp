// A PostgreSQL history through the real cgbench binary: 32 `cgbench run` processes recording
// at once lose nothing, the password given in the URL, PGPASSWORD, a password file or a
// service file never shows in anything cgbench prints or writes, and the organisation view
// (`report --all-projects`) lists each project with its latest state and links to its page.
// Against the test suite's own server (unit/pg_fixtures.hpp); the cases named *Postgres*
// skip, saying why, when it is not running.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <thread>

#include "access/history_url.hpp"
#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "postgres_store/pg.hpp"
#include "report/escape.hpp"
#include "unit/pg_fixtures.hpp"
#include "unit/run_fixtures.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using testing_fixtures::kHostile;

// A database of its own on the suite's server (other cases share its default database),
// dropped at the end; its URL with and without the password.
class PostgresE2E : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!server_.skip.empty()) GTEST_SKIP() << server_.skip;
        postgres_store::Connection admin(postgres_store::parse_location(server_.url));
        database_ = fmt::format("e2e{}_{}", ::getpid(),
                                ::testing::UnitTest::GetInstance()->current_test_info()->line());
        admin.exec("DROP DATABASE IF EXISTS " + database_);
        admin.exec("CREATE DATABASE " + database_);
        const auto at = server_.url.find('@');
        const auto colon = server_.url.find(':', 13);  // after "postgresql://"
        password_ = server_.url.substr(colon + 1, at - colon - 1);
        host_port_ = server_.url.substr(at + 1, server_.url.rfind('/') - at - 1);
        url_ = fmt::format("postgresql://cgbench:{}@{}/{}", password_, host_port_, database_);
        bare_url_ = fmt::format("postgresql://cgbench@{}/{}", host_port_, database_);
    }
    void TearDown() override {
        if (database_.empty()) return;
        postgres_store::Connection admin(postgres_store::parse_location(server_.url));
        admin.exec("DROP DATABASE IF EXISTS " + database_ + " WITH (FORCE)");
    }
    // Asserts that nothing `r` printed holds the password.
    void expect_no_password(const Result& r, const std::string& what) const {
        EXPECT_EQ(r.out.find(password_), std::string::npos) << what << ": " << r.out;
        EXPECT_EQ(r.err.find(password_), std::string::npos) << what << ": " << r.err;
    }

    testing_fixtures::TestServer server_ = testing_fixtures::test_server();
    std::string database_, password_, host_port_, url_, bare_url_;
};

// `n` runs of benchmark "w" on main, one commit each: `cost` then, from run `step` on,
// 1.3x `cost` (a lasting +30% move: a step).
void record_project(const std::string& url, const std::string& project, int n, std::uint64_t cost,
                    int step) {
    const auto h = access::open_history(url + "?project=" + project, history::Access::Record);
    for (int i = 0; i < n; ++i) {
        const std::uint64_t c = i >= step ? cost * 13 / 10 : cost;
        auto r = testing_fixtures::run_at(fmt::format("{}-{}", project, i),
                                          {testing_fixtures::bench("w", c)},
                                          fmt::format("2026-11-2{}T0{}:00:00Z", 1 + i / 9, i % 9));
        r.git.commit = fmt::format("{:04x}{:036x}", 0xa100 + i, 0);
        history::record_run(*h, r);
    }
}

// The steps `cgbench steps` finds on the default branch of `project`, and how many made it
// more expensive.
std::pair<std::size_t, std::size_t> steps_of(const std::string& url, const std::string& project) {
    const auto r = cgbench({"steps", "--db", url, "--project", project, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::size_t steps = 0, up = 0;
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto& b : doc.at("branches")) {
        if (!b["default"].get<bool>()) continue;
        for (const auto& e : b["events"]) {
            for (const auto& s : e["steps"]) {
                ++steps;
                if (s["change"].get<double>() > 0) ++up;
            }
        }
    }
    return {steps, up};
}

// The index row of `name`.
std::string row_of(const std::string& html, const std::string& name) {
    const auto at = html.find(">" + report::markup_escape(name) + "<", html.find("<tbody>"));
    if (at == std::string::npos) return {};
    const auto start = html.rfind("<tr>", at);
    return html.substr(start, html.find("</tr>", at) - start);
}

}  // namespace

TEST_F(PostgresE2E, ThirtyTwoRunProcessesAtOnceLoseNothingAndShowNoPassword) {
    constexpr int kProcesses = 32;
    std::vector<Result> results(kProcesses);
    std::vector<std::thread> threads;
    for (int p = 0; p < kProcesses; ++p) {
        threads.emplace_back([&, p] {
            results[p] = cgbench({"run", "-vv", "--format", "json", "--db", url_, "--project",
                                  "many", "--weights", "ir", "--name", "concurrent", "--",
                                  program("workload"), "100"});
        });
    }
    for (auto& t : threads)
        t.join();
    std::set<std::string> ids;
    for (const auto& r : results) {
        EXPECT_EQ(r.exit_code, 0) << r.err;
        expect_no_password(r, "run -vv with the password in the URL");
        if (r.exit_code == 0) {
            ids.insert(nlohmann::json::parse(r.out).at("run").at("id").get<std::string>());
        }
    }
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(kProcesses));
    const auto series =
        cgbench({"history", "concurrent", "--db", url_, "--project", "many", "--format", "json"});
    ASSERT_EQ(series.exit_code, 0) << series.err;
    std::set<std::string> stored;
    const auto points = nlohmann::json::parse(series.out);
    for (const auto& point : points)
        stored.insert(point["run"].get<std::string>());
    EXPECT_EQ(stored, ids) << "every run stored, each once";
}

// `compare` reads stored runs without their functions, then the functions of what it gates
// (PostgreSQL keeps them beside each document): the same report as from a SQLite history of
// the same runs, and the function that moved most as from the result files.
TEST_F(PostgresE2E, StoredRunsCompareAsTheirResultFilesWithTheFunctionsThatMoved) {
    const auto dir = scratch("pg-compare");
    std::vector<std::string> ids;
    for (const bool slow : {false, true}) {
        const auto out = (dir / (slow ? "head.json" : "base.json")).string();
        std::vector<std::string> args = {
            "run", "-q",     "--db", url_, "--project",         "c",   "--out",
            out,   "--name", "w",    "--", program("workload"), "2000"};
        if (slow) args.push_back("slow");
        const auto r = cgbench(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        ids.push_back(read_json(out)["run"]["id"].get<std::string>());
        const auto sqlite = dir / "history.db";
        ASSERT_EQ(cgbench({"import", "-q", "--db", sqlite.string(), out}).exit_code, 0);
    }
    const auto compare = [&](const std::vector<std::string>& where) {
        std::vector<std::string> args = {"compare", "--format", "json"};
        args.insert(args.end(), where.begin(), where.end());
        const auto r = cgbench(args);
        EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // a regression
        return nlohmann::json::parse(r.out);
    };
    const auto pg = compare({"--db", url_, "--project", "c", ids[0], ids[1]});
    const auto sqlite = compare({"--db", (dir / "history.db").string(), ids[0], ids[1]});
    const auto files = compare({(dir / "base.json").string(), (dir / "head.json").string()});
    EXPECT_EQ(pg["benchmarks"], sqlite["benchmarks"]);
    const auto& moved = pg["benchmarks"][0]["functions_moved"];
    ASSERT_FALSE(moved.empty()) << pg.dump(1);
    // A history keeps a result's 10 costliest functions: the one that moved most is the same.
    EXPECT_EQ(moved[0], files["benchmarks"][0]["functions_moved"][0]);
}

TEST_F(PostgresE2E, EveryWayOfGivingThePasswordWorksAndNoneShowsIt) {
    record_project(url_, "creds", 3, 1000, 99);
    const auto dir = scratch("pg-credentials");
    const auto passfile = dir / "pgpass";
    util::write_file_atomic(passfile, fmt::format("{}:*:cgbench:{}\n", host_port_, password_));
    fs::permissions(passfile, fs::perms::owner_read | fs::perms::owner_write);
    const auto service = dir / "pg_service.conf";
    const auto colon = host_port_.find(':');
    util::write_file_atomic(
        service, fmt::format("[cg]\nhost={}\nport={}\nuser=cgbench\ndbname={}\npassword={}\n",
                             host_port_.substr(0, colon), host_port_.substr(colon + 1), database_,
                             password_));
    const std::vector<std::string> no_password = {"PGPASSWORD", "PGPASSFILE", "PGSERVICEFILE"};
    struct Way {
        std::string what, url;
        std::map<std::string, std::string> env;
    };
    const std::vector<Way> ways = {
        {"the URL", url_, {}},
        {"PGPASSWORD", bare_url_, {{"PGPASSWORD", password_}}},
        {"PGPASSFILE", bare_url_, {{"PGPASSFILE", passfile.string()}}},
        {"a service file", "postgresql://?service=cg", {{"PGSERVICEFILE", service.string()}}},
    };
    for (const auto& way : ways) {
        Options o{way.env, no_password};
        for (const auto& [k, v] : way.env)
            std::erase(o.unset, k);
        const auto history = cgbench({"history", "-vv", "--db", way.url, "--project", "creds"}, o);
        EXPECT_EQ(history.exit_code, 0) << way.what << ": " << history.err;
        EXPECT_NE(history.out.find("creds-2"), std::string::npos)
            << way.what << ": " << history.out;
        expect_no_password(history, way.what + ", history -vv");
        const auto steps =
            cgbench({"steps", "-vv", "--db", way.url, "--project", "creds", "--format", "json"}, o);
        EXPECT_EQ(steps.exit_code, 0) << way.what << ": " << steps.err;
        expect_no_password(steps, way.what + ", steps -vv");
        const auto page = dir / "index.html";
        const auto report = cgbench(
            {"report", "-vv", "--all-projects", "--db", way.url, "--html", page.string()}, o);
        EXPECT_EQ(report.exit_code, 0) << way.what << ": " << report.err;
        expect_no_password(report, way.what + ", report -vv");
        for (const auto& file : fs::directory_iterator(dir)) {
            if (file.path().extension() != ".html") continue;
            EXPECT_EQ(util::read_file(file.path()).find(password_), std::string::npos)
                << way.what << ": " << file.path();
        }
    }
    // Without any of them the server refuses, in one line naming the remedy and no secret.
    const auto refused =
        cgbench({"history", "--db", bare_url_, "--project", "creds"}, {{}, no_password});
    EXPECT_EQ(refused.exit_code, 4) << refused.err;
    EXPECT_NE(refused.err.find("cgbench: error:"), std::string::npos) << refused.err;
    expect_no_password(refused, "no password");
}

TEST_F(PostgresE2E, TheOrganisationViewListsEveryProjectWithItsLatestState) {
    record_project(url_, "org/flat", 4, 1000, 99);
    record_project(url_, "org/stepped", 8, 2000, 4);
    record_project(url_, kHostile, 2, 500, 99);
    const auto dir = scratch("pg-organisation");
    const auto index = dir / "site" / "index.html";
    fs::create_directories(index.parent_path());
    const auto r = cgbench({"report", "--all-projects", "--db", url_, "--html", index.string(),
                            "--commit-url", "https://forge.example/{project}/commit/{commit}"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("3 projects"), std::string::npos) << r.out;
    expect_no_password(r, "report --all-projects");
    const auto html = util::read_file(index);
    EXPECT_EQ(html.find(password_), std::string::npos);
    EXPECT_EQ(html.find(kHostile), std::string::npos) << "a name is escaped";
    for (const auto& [project, runs] : std::vector<std::pair<std::string, int>>{
             {"org/flat", 4}, {"org/stepped", 8}, {kHostile, 2}}) {
        const auto row = row_of(html, project);
        ASSERT_FALSE(row.empty()) << project;
        const auto href = row.find("href=\"");
        ASSERT_NE(href, std::string::npos) << row;
        const auto page = row.substr(href + 6, row.find('"', href + 6) - href - 6);
        EXPECT_EQ(page.find('/'), std::string::npos) << "beside the index: " << page;
        const auto text = util::read_file(index.parent_path() / page);
        EXPECT_NE(text.find("?project=" + report::markup_escape(project)), std::string::npos)
            << "the page is " << project << "'s";
        if (project == "org/stepped") {
            EXPECT_NE(text.find("https://forge.example/org/stepped/commit/a107"), std::string::npos)
                << "commits link to the project's own repository";
        }
        EXPECT_NE(row.find(fmt::format("<td class=\"n\">1</td><td class=\"n\">{}</td>", runs)),
                  std::string::npos)
            << "1 benchmark, " << runs << " runs: " << row;
        EXPECT_NE(row.find(fmt::format("<code>{:04x}000000</code>", 0xa100 + runs - 1)),
                  std::string::npos)
            << "the latest run's commit: " << row;
        const auto [steps, up] = steps_of(url_, project);
        EXPECT_NE(row.find(fmt::format(
                      "<td class=\"n\">{}</td><td class=\"n\">{}", steps,
                      up > 0 ? fmt::format("<span class=\"up\">{}</span>", up) : std::string("0"))),
                  std::string::npos)
            << project << " as `cgbench steps` finds it (" << steps << ", " << up << "): " << row;
    }
    EXPECT_NE(steps_of(url_, "org/stepped").second, 0u) << "the +30% is a step up";
}

TEST(OrganisationView, ASqliteHistoryIsOneProject) {
    const auto dir = scratch("sqlite-organisation");
    const auto db = dir / "history.db";
    {
        const auto h = access::open_history(db.string(), history::Access::Record);
        history::record_run(*h, testing_fixtures::run("only", {testing_fixtures::bench("w", 10)}));
    }
    const auto index = dir / "index.html";
    const auto r =
        cgbench({"report", "--all-projects", "--db", db.string(), "--html", index.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto html = util::read_file(index);
    EXPECT_NE(html.find("1 project "), std::string::npos);
    const auto row = row_of(html, db.string());
    EXPECT_NE(row.find("href=\"history-"), std::string::npos) << html;
    const auto stdout_page =
        cgbench({"report", "--all-projects", "--db", db.string(), "--html", "-"});
    EXPECT_EQ(stdout_page.exit_code, 2) << "an index needs a directory for its pages";
    EXPECT_NE(stdout_page.err.find("--all-projects"), std::string::npos) << stdout_page.err;
}

}  // namespace cgbench::e2e
