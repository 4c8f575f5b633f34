// Hardening, result files read by `import` and `compare` (reliability audit 2, R01-R08, R10,
// Q01): a value the history cannot hold or a file that lies is named and not imported while
// the others are; a directory's links lead nowhere outside it; a name is never guessed.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "e2e/measured_repo.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using json = nlohmann::json;

fs::path write(const fs::path& path, const json& doc) {
    std::ofstream(path) << doc.dump(2);
    return path;
}

// `doc` as another run: its own id, so files of one test import side by side.
json with_id(json doc, const std::string& id) {
    doc["run"]["id"] = id;
    return doc;
}

// A copy of `doc` whose first benchmark has Ir and cost `v` (consistent under --weights ir).
json with_count(json doc, std::uint64_t v, const std::string& id) {
    doc = with_id(std::move(doc), id);
    doc["benchmarks"][0]["events"]["Ir"] = v;
    doc["benchmarks"][0]["cost"] = v;
    return doc;
}

Result import(const fs::path& db, const std::vector<std::string>& paths) {
    std::vector<std::string> args = {"import", "--db", db.string()};
    args.insert(args.end(), paths.begin(), paths.end());
    return cgbench(args);
}

}  // namespace

TEST(Hardening, R01_CountsOf2To63AndMoreAreRefusedNotStoredAsNothing) {
    const auto dir = scratch("hardening-r01");
    const auto doc = measured_ir(dir);
    const auto big = write(dir / "big.json", with_count(doc, UINT64_MAX, "big"));
    const auto big63 = write(dir / "big63.json", with_count(doc, 1ULL << 63, "big63"));
    const auto fits = write(dir / "fits.json", with_count(doc, (1ULL << 63) - 1, "fits"));
    const auto db = dir / "h.db";
    const auto r = import(db, {big.string(), big63.string(), fits.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(
        r.err.find(big.string() + ": benchmark 'w1': cost 18446744073709551615 is 2^63 or more"),
        std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(big63.string() + ": benchmark 'w1': cost 9223372036854775808"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(history_runs(db), 1u) << "the file that fits was not imported";
    const auto h = cgbench({"history", "--db", db.string(), "--format", "json", "w1"});
    EXPECT_NE(h.out.find("9223372036854775807"), std::string::npos) << h.out;
}

TEST(Hardening, R02_AChangeBeyond2To63KeepsItsSignAndSize) {
    const auto dir = scratch("hardening-r02");
    const auto doc = measured_ir(dir);
    const auto big = write(dir / "big.json", with_count(doc, UINT64_MAX, "big"));
    const auto one = write(dir / "one.json", with_count(doc, 1, "one"));
    const auto r = cgbench({"compare", "--no-db", big.string(), one.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("-18,446,744,073,709,551,614"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("(+2)"), std::string::npos) << r.out;
    const auto up = cgbench({"compare", "--no-db", "--format", "json", one.string(), big.string()});
    EXPECT_EQ(up.exit_code, 1) << up.err;
    EXPECT_NE(up.out.find("\"delta\":18446744073709551614"), std::string::npos) << up.out;
    const auto down =
        cgbench({"compare", "--no-db", "--format", "json", big.string(), one.string()});
    const auto changes = json::parse(down.out)["benchmarks"][0]["changes"];
    ASSERT_FALSE(changes.empty()) << down.out;
    EXPECT_LT(changes[0]["delta"].get<double>(), -1.8e19) << down.out;
}

TEST(Hardening, R03_ACostItsEventsDoNotGiveIsRefused) {
    const auto dir = scratch("hardening-r03");
    auto doc = with_id(measured_ir(dir), "liar");
    const auto ir = doc["benchmarks"][0]["events"]["Ir"].get<std::uint64_t>();
    doc["benchmarks"][0]["cost"] = 1;
    const auto liar = write(dir / "liar.json", doc);
    const auto c = cgbench({"compare", "--no-db", liar.string(), liar.string()});
    EXPECT_EQ(c.exit_code, 2) << c.err;
    EXPECT_NE(c.err.find(fmt::format("benchmarks[0].cost is 1, but its events and weights (Ir "
                                     "only) give {}",
                                     ir)),
              std::string::npos)
        << c.err;
    const auto db = dir / "h.db";
    EXPECT_EQ(import(db, {liar.string()}).exit_code, 2);
    EXPECT_EQ(history_runs(db), 0u);
}

TEST(Hardening, R04_AKeyGivenTwiceIsRefused) {
    const auto dir = scratch("hardening-r04");
    auto text = with_id(measured_ir(dir), "dup").dump(2);
    const std::string ir = "\"Ir\": ";
    const auto at = text.find(ir);
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "\"Ir\": 999999999,\n");
    const auto dup = dir / "dup.json";
    std::ofstream(dup) << text;
    const auto db = dir / "h.db";
    const auto r = import(db, {dup.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("the key \"Ir\" appears twice in one object"), std::string::npos) << r.err;
    EXPECT_EQ(history_runs(db), 0u);
}

TEST(Hardening, R05_RunIdsThatCannotNameAFileAreRefused) {
    const auto dir = scratch("hardening-r05");
    const auto doc = measured_ir(dir);
    const auto db = dir / "h.db";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"../../../../tmp/x", "holds a '/'"},
        {"a\nb\x1b[31mred", "holds a control character"},
        {std::string(1000000, 'L'), "is 1000000 bytes long (at most 128)"},
        {"..", "is '..'"}};
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto f = write(dir / fmt::format("id{}.json", i), with_id(doc, cases[i].first));
        const auto r = import(db, {f.string()});
        EXPECT_EQ(r.exit_code, 2) << i << ": " << r.err.substr(0, 300);
        EXPECT_NE(r.err.find(cases[i].second), std::string::npos) << r.err.substr(0, 300);
        EXPECT_LT(r.err.size(), 2000u) << "the id was echoed whole";
    }
    EXPECT_EQ(history_runs(db), 0u);
    const auto ok = write(dir / "ok.json", with_id(doc, "v1.2_rc-3"));
    EXPECT_EQ(import(db, {ok.string()}).exit_code, 0);
}

TEST(Hardening, R06_AStartThatIsNoTimeIsRefused) {
    const auto dir = scratch("hardening-r06");
    const auto doc = measured_ir(dir);
    const auto db = dir / "h.db";
    for (const std::string started : {"not a date", "-0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z",
                                      "2026-01-01 00:00:00", "1900-01-01T00:00:00Z"}) {
        auto d = with_id(doc, "bad-start");
        d["run"]["started"] = started;
        const auto f = write(dir / "bad.json", d);
        const auto r = import(db, {f.string()});
        EXPECT_EQ(r.exit_code, 2) << started << ": " << r.err;
        EXPECT_NE(r.err.find("is not a UTC time written YYYY-MM-DDTHH:MM:SSZ"), std::string::npos)
            << r.err;
    }
    auto future = with_id(doc, "future");
    future["run"]["started"] = "9999-12-31T23:59:59Z";
    const auto f = write(dir / "future.json", future);
    const auto r = import(db, {f.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("more than a day ahead of this machine's clock"), std::string::npos)
        << r.err;
    EXPECT_EQ(history_runs(db), 0u);
}

TEST(Hardening, R07_ANameWithANulIsRefusedNotCut) {
    const auto dir = scratch("hardening-r07");
    auto doc = with_id(measured_ir(dir), "nul");
    doc["benchmarks"][0]["name"] = std::string("a\0b/../../c\u202eevil", 20);
    const auto f = write(dir / "nul.json", doc);
    const auto db = dir / "h.db";
    const auto r = import(db, {f.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("benchmarks[0].name holds a NUL character"), std::string::npos) << r.err;
    EXPECT_EQ(history_runs(db), 0u);
}

TEST(Hardening, R08_ANumberBeyondADoubleFailsItsFileOnly) {
    const auto dir = scratch("hardening-r08");
    const auto doc = measured_ir(dir);
    const auto runs = dir / "runs";
    fs::create_directories(runs);
    write(runs / "a.json", with_id(doc, "a"));
    write(runs / "c.json", with_id(doc, "c"));
    auto text = with_id(doc, "b").dump(2);
    const std::string wall = "\"wall_seconds\": ";
    const auto at = text.find(wall);
    ASSERT_NE(at, std::string::npos);
    text.replace(at + wall.size(), text.find_first_of(",\n}", at + wall.size()) - at - wall.size(),
                 "1e999");
    std::ofstream(runs / "b.json") << text;
    const auto db = dir / "h.db";
    const auto r = import(db, {runs.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find((runs / "b.json").string() + ": not valid JSON"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("number overflow"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(history_runs(db), 2u);
}

TEST(Hardening, R10_ADirectorysLinksAreNotFollowedOutOfIt) {
    const auto dir = scratch("hardening-r10");
    const auto doc = measured_ir(dir);
    const auto runs = dir / "runs";
    fs::create_directories(runs / "sub");
    write(runs / "good.json", with_id(doc, "good"));
    fs::create_directory_symlink("..", runs / "sub" / "loop");
    fs::create_symlink(dir / "measured.json", runs / "outside.json");  // a result file, outside
    fs::create_symlink("/proc/self/environ", runs / "env.json");
    fs::create_symlink(runs / "good.json", runs / "inside.json");  // stays inside: read
    ASSERT_EQ(::mkfifo((runs / "fifo.json").c_str(), 0600), 0);
    const auto db = dir / "h.db";
    const auto r = import(db, {runs.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find((runs / "outside.json").string() + ": a symbolic link out of"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find((runs / "env.json").string() + ": a symbolic link out of"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("2 links leading out of the directory skipped"), std::string::npos)
        << r.out;
    EXPECT_EQ(history_runs(db), 1u) << "the run outside the directory was imported";
}

TEST(Hardening, Q01_ANameThatIsBothARunIdAndAGitRefIsRefused) {
    const auto dir = scratch("hardening-q01");
    fs::create_directories(dir / "repo");
    MeasuredRepo repo(dir / "repo");
    const auto db = dir / "h.db";
    repo.program(1000);
    repo.commit("one");
    repo.measure(db);
    ASSERT_TRUE(repo.git().run({"tag", "v5"}));
    const auto out = dir / "v5.json";
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--out", out.string()}, {.cwd = repo.dir().string()})
                  .exit_code,
              0);
    auto doc = read_json(out);
    doc["run"]["id"] = "v5";
    write(out, doc);
    ASSERT_EQ(import(db, {out.string()}).exit_code, 0);
    const auto both =
        cgbench({"compare", "--db", db.string(), "v5", "v5"}, {.cwd = repo.dir().string()});
    EXPECT_EQ(both.exit_code, 2) << both.err;
    EXPECT_NE(both.err.find("'v5' names both run v5 in " + db.string() + " and the git ref v5"),
              std::string::npos)
        << both.err;
    EXPECT_NE(both.err.find("write run:v5 for the stored run"), std::string::npos) << both.err;
    const auto each = cgbench({"compare", "--db", db.string(), "refs/tags/v5", "run:v5"},
                              {.cwd = repo.dir().string()});
    EXPECT_EQ(each.exit_code, 0) << each.err;
    EXPECT_NE(each.out.find("run v5"), std::string::npos) << each.out;
}

}  // namespace cgbench::e2e
