// `cgbench report --html` end to end: three recorded runs of real programs become one page
// whose numbers are the ones `cgbench history` reports, hostile names stay text, and every
// error is one line with the documented exit code, before anything is written.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "report/escape.hpp"
#include "report/flame_svg.hpp"
#include "sqlite_store/sqlite.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "unit/run_fixtures.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::e2e {

namespace {

using testing_fixtures::kHostile;

// Three benchmarks; `n` sets the work, and in the third run the last one fails.
std::string suite_text(int run) {
    const int n = 2000 + 1000 * run;
    const std::string last = run == 2 ? fmt::format("\"{}\", \"3\"", program("exit_with"))
                                      : fmt::format("\"{}\", \"{}\"", program("workload"), n);
    return fmt::format(
        "[[bench]]\nname = \"w\"\ncommand = [\"{0}\", \"{1}\"]\n\n"
        "[[bench]]\nname = \"{2}\"\ncommand = [\"{0}\", \"{1}\", \"slow\"]\n\n"
        "[[bench]]\nname = \"sometimes-fails\"\ncommand = [{3}]\n",
        program("workload"), n, kHostile, last);
}

// A database of three runs under the real Valgrind, in a directory of its own (ctest runs
// each test in its own process, at the same time as the others).
fs::path record_three_runs(const std::string& name) {
    const auto dir = scratch(name);
    for (int run = 0; run < 3; ++run) {
        const auto suite = write_suite(dir, suite_text(run));
        const auto r = cgbench(
            {"run", "-q", "--db", (dir / "history.db").string(), "--suite", suite.string()});
        EXPECT_EQ(r.exit_code, run == 2 ? 3 : 0) << r.err;
    }
    return dir / "history.db";
}

// A database with one run, written without Valgrind.
fs::path one_stored_run(const fs::path& dir) {
    const auto db = dir / "stored.db";
    history::record_run(*sqlite_store::SqliteHistory::open_for_recording(db),
                        testing_fixtures::run("r1", {testing_fixtures::bench("w", 1000)}));
    return db;
}

Result report(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"report"};
    all.insert(all.end(), args.begin(), args.end());
    return cgbench(all);
}

// What `cgbench history NAME --format json` says about the newest result.
nlohmann::json latest(const fs::path& db, const std::string& name) {
    const auto r = cgbench({"history", name, "--db", db.string(), "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.size(), 3u) << name;
    return doc.back();
}

// The summary row of benchmark `name`.
std::string summary_row(const std::string& html, const std::string& name) {
    const auto at = html.find("\">" + report::markup_escape(name) + "</a></td>");
    if (at == std::string::npos) return {};
    return html.substr(at, html.find("</tr>", at) - at);
}

void expect_one_line_error(const Result& r, int code, const std::string& text) {
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_TRUE(util::starts_with(r.err, "cgbench: error: ")) << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// Neither the page `name` nor its temporary (".NAME.tmp.XXXXXX") in `dir`.
void expect_no_page(const fs::path& dir, const std::string& name = "x.html") {
    for (const auto& entry : fs::directory_iterator(dir)) {
        EXPECT_EQ(entry.path().filename().string().find(name), std::string::npos)
            << "left behind: " << entry.path();
    }
}

}  // namespace

TEST(ReportE2E, EveryBenchmarkWithTheLatestCostsHistoryReports) {
    const auto db = record_three_runs("report-html");
    const auto out = db.parent_path() / "history.html";
    const auto r = report({"--db", db.string(), "--html", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, fmt::format("wrote {}: 3 benchmarks\n", out.string()));
    const std::string html = util::read_file(out);
    EXPECT_EQ(html.find(kHostile), std::string::npos) << "the name is escaped";
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_NE(html.find("3 benchmarks · 3 runs · the last 50 results of each"), std::string::npos);
    for (const std::string name : {"w", kHostile.c_str()}) {
        const auto newest = latest(db, name);
        const auto row = summary_row(html, name);
        ASSERT_FALSE(row.empty()) << name;
        EXPECT_NE(row.find(fmt::format("<td class=\"num\">{}</td>",
                                       util::with_commas(newest["cost"].get<std::uint64_t>()))),
                  std::string::npos)
            << row;
        EXPECT_NE(row.find(fmt::format("<td class=\"num\">{}</td>",
                                       util::with_commas(newest["Ir"].get<std::uint64_t>()))),
                  std::string::npos)
            << row;
        EXPECT_NE(row.find(util::percent(newest["change"].get<double>())), std::string::npos);
        EXPECT_GT(newest["change"].get<double>(), 0) << "more work each run";
    }
    EXPECT_TRUE(latest(db, "sometimes-fails")["cost"].is_null());
    EXPECT_NE(summary_row(html, "sometimes-fails").find("<span class=\"failed\">failed</span>"),
              std::string::npos);
    EXPECT_EQ(std::count(html.begin(), html.end(), '\0'), 0);
    EXPECT_NE(html.find("class=\"failed\"><title>"), std::string::npos) << "a cross in the chart";
}

TEST(ReportE2E, FilterAndLast) {
    const auto db = record_three_runs("report-filter");
    const auto out = db.parent_path() / "w.html";
    const auto r = report(
        {"--db", db.string(), "--html", out.string(), "--filter", "^w$", "--last", "2", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "") << "-q";
    const std::string html = util::read_file(out);
    EXPECT_NE(html.find("1 benchmark · 2 runs · the last 2 results of each"), std::string::npos);
    EXPECT_NE(html.find("<summary>All 2 results, newest commit first</summary>"),
              std::string::npos);
    EXPECT_EQ(html.find("sometimes-fails"), std::string::npos);
}

TEST(ReportE2E, UsageErrors) {
    const auto dir = scratch("report-usage");
    const auto db = one_stored_run(dir).string();
    expect_one_line_error(report({"--db", db}), 2, "--html is required");
    expect_one_line_error(
        report({"--db", db, "--html", (dir / "x.html").string(), "--filter", "("}), 2,
        "invalid --filter '('");
    expect_one_line_error(
        report({"--db", db, "--html", (dir / "x.html").string(), "--filter", "^nothing$"}), 2,
        "no benchmark in");
    expect_one_line_error(report({"--no-db", "--html", (dir / "x.html").string()}), 2, "--no-db");
    expect_no_page(dir);
}

TEST(ReportE2E, MissingOrEmptyDatabase) {
    const auto dir = scratch("report-missing");
    const auto missing = dir / "none.db";
    const auto r = report({"--db", missing.string(), "--html", (dir / "x.html").string()});
    expect_one_line_error(r, 2,
                          fmt::format("there is no history database at {}", missing.string()));
    EXPECT_NE(r.err.find("(record runs with `cgbench run`, or pass --db PATH)"), std::string::npos);
    expect_no_page(dir);

    const auto empty_dir = scratch("report-empty");
    const auto empty = empty_dir / "empty.db";
    { sqlite_store::SqliteHistory::open_for_recording(empty); }
    const auto e = report({"--db", empty.string(), "--html", (empty_dir / "x.html").string()});
    expect_one_line_error(e, 2, fmt::format("the history database {} has no runs", empty.string()));
    expect_no_page(empty_dir);
}

TEST(ReportE2E, DamagedOrNewerDatabase) {
    const auto dir = scratch("report-damaged");
    const auto db = dir / "history.db";
    std::ofstream(db, std::ios::binary) << "not a database at all\n" << std::string(3000, 'z');
    const auto out = dir / "x.html";
    expect_one_line_error(report({"--db", db.string(), "--html", out.string()}), 4,
                          "not a cgbench history database, or damaged");
    expect_no_page(dir);

    const auto newer = dir / "newer.db";
    fs::copy_file(one_stored_run(dir), newer);
    {
        sqlite_store::Database(newer, sqlite_store::Database::Mode::Existing)
            .exec("PRAGMA user_version = 42");
    }
    expect_one_line_error(report({"--db", newer.string(), "--html", out.string()}), 4,
                          "newer than this cgbench understands");
    expect_no_page(dir);
}

TEST(ReportE2E, UnwritableOutputFailsBeforeTheDatabaseIsRead) {
    const auto dir = scratch("report-unwritable");
    // A damaged database would fail with exit 4 once read: the output's error comes first.
    const auto db = dir / "damaged.db";
    std::ofstream(db, std::ios::binary) << std::string(4096, 'z');
    const auto nowhere = dir / "no-such-dir" / "out.html";
    expect_one_line_error(report({"--db", db.string(), "--html", nowhere.string()}), 2,
                          "does not exist");
    EXPECT_FALSE(fs::exists(nowhere.parent_path()));
    expect_one_line_error(report({"--db", db.string(), "--html", dir.string()}), 2,
                          "is a directory");
    expect_no_page(dir, "out.html");
    expect_no_page(dir, ".tmp.");
}

// --flame DIR: each flame graph cgbench drew there is inlined in the page under its file's
// name, escaped; another file is left out with a warning; a missing DIR is a usage error
// before anything is written.
TEST(ReportE2E, FlameGraphsOfADirectoryAreEmbedded) {
    const auto dir = scratch("report-flame");
    const auto db = one_stored_run(dir);
    const auto flames = dir / "flame";
    fs::create_directories(flames);
    CallTree head("w"), base("w");
    head.add_self(head.child(CallTree::kRoot, "grew"), 300);
    base.add_self(base.child(CallTree::kRoot, "grew"), 100);
    const report::FlameGraph graph{"w", "cost +200%", &head, &base};
    const std::string stem = "w<i>&";
    util::write_file_atomic(flames / (stem + ".svg"), report::render_flame_svg(graph));
    util::write_file_atomic(flames / "evil.svg", "<svg><script>alert(1)</script></svg>\n");
    util::write_file_atomic(flames / "notes.txt", "not a graph");
    const auto html = dir / "x.html";
    const auto r =
        report({"--db", db.string(), "--html", html.string(), "--flame", flames.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("evil.svg is not a flame graph cgbench drew"), std::string::npos) << r.err;
    const auto page = util::read_file(html);
    EXPECT_NE(page.find("<figcaption>" + report::markup_escape(stem) + "</figcaption>\n" +
                        report::render_flame_svg_element(graph)),
              std::string::npos);
    EXPECT_EQ(page.find(stem), std::string::npos);
    EXPECT_EQ(page.find("alert(1)"), std::string::npos);
    expect_one_line_error(report({"--db", db.string(), "--html", (dir / "y.html").string(),
                                  "--flame", (dir / "none").string()}),
                          2, "--flame");
    expect_no_page(dir, "y.html");
}

}  // namespace cgbench::e2e
