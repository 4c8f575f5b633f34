// `cgbench compare` and `cgbench export` end to end: real runs of tests/programs/workload
// (its `slow` mode does 10% more work in the loop), compared from result files, run ids and
// git refs, in every format.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "e2e/harness.hpp"
#include "exec/git.hpp"
#include "unit/run_fixtures.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using testing_fixtures::kHostile;
using testing_fixtures::occurrences;
using testing_fixtures::unescaped_pipes;

// Records a run of workload (normal or slow) named `name` into `db`, also as `out`.
void record(const fs::path& db, const std::string& name, bool slow, const fs::path& out = {},
            const Options& options = {}) {
    std::vector<std::string> args = {"run", "-q", "--db", db.string(), "--name", name};
    if (!out.empty()) args.insert(args.end(), {"--out", out.string()});
    args.insert(args.end(), {"--", program("workload"), "2000"});
    if (slow) args.push_back("slow");
    const auto r = cgbench(args, options);
    ASSERT_EQ(r.exit_code, 0) << r.err;
}

// Run ids in `db`, oldest first.
std::vector<std::string> run_ids(const fs::path& db) {
    const auto doc =
        nlohmann::json::parse(cgbench({"history", "--db", db.string(), "--format", "json"}).out);
    std::vector<std::string> ids;
    for (const auto& r : doc)
        ids.insert(ids.begin(), r["run"].get<std::string>());
    return ids;
}

}  // namespace

// A branch watched in CI: each run compared with the previous one of its branch in the
// history; the first one, and one on a new branch, have no baseline and pass.
TEST(CompareE2E, PreviousRunOfTheBranchAndNoBaseline) {
    const auto dir = scratch("compare-previous");
    const auto db = dir / "history.db";
    // Outside any git checkout: the branch is CGBENCH_BRANCH's, the runs are clean.
    const Options on_main{.env = {{"CGBENCH_BRANCH", "main"}}, .cwd = dir.string()};
    record(db, "w", false, {}, on_main);
    const auto slow = cgbench({"run", "-q", "--no-db", "--name", "w", "--out",
                               (dir / "head.json").string(), "--", program("workload"), "2000",
                               "slow"},
                              on_main);
    ASSERT_EQ(slow.exit_code, 0) << slow.err;
    const auto head = (dir / "head.json").string();
    const auto watched = cgbench({"compare", "--db", db.string(), "--previous", head});
    EXPECT_EQ(watched.exit_code, 1) << watched.out << watched.err;
    EXPECT_NE(watched.out.find("base  previous run of main · run " + run_ids(db).at(0)),
              std::string::npos)
        << watched.out;
    EXPECT_NE(watched.out.find("REGRESSION"), std::string::npos);

    const auto fresh = cgbench({"compare", "--db", (dir / "none.db").string(), "--previous", head});
    EXPECT_EQ(fresh.exit_code, 0) << fresh.out << fresh.err;
    EXPECT_NE(fresh.out.find("note: No baseline: no earlier run of branch main measured the "
                             "same way is stored; every benchmark is reported as added"),
              std::string::npos)
        << fresh.out;
    EXPECT_NE(fresh.out.find("PASS  No benchmark got more expensive; 1 added"), std::string::npos);

    const auto first = cgbench({"compare", "--no-baseline", "the merge base has no cgbench.toml",
                                "--format", "markdown", head});
    EXPECT_EQ(first.exit_code, 0) << first.err;
    EXPECT_NE(first.out.find("> [!NOTE]\n> No baseline: the merge base has no cgbench.toml"),
              std::string::npos)
        << first.out;
    EXPECT_EQ(cgbench({"compare", "--previous", "--no-db", head}).exit_code, 2);
    EXPECT_EQ(cgbench({"compare", "--previous", head, head}).exit_code, 2);

}

// One threshold grammar: what a suite and `run --threshold` accept, compare accepts, and
// `config threshold` checks it alone.
TEST(CompareE2E, OneThresholdGrammar) {
    const auto dir = scratch("compare-grammar");
    const auto db = dir / "history.db";
    record(db, "w", false, dir / "base.json");
    record(db, "w", true, dir / "head.json");
    const auto base = (dir / "base.json").string();
    const auto head = (dir / "head.json").string();
    EXPECT_EQ(cgbench({"compare", "--threshold", "1.5%", base, head}).exit_code, 1);
    EXPECT_EQ(cgbench({"compare", "--threshold", "50%", base, head}).exit_code, 0);
    EXPECT_EQ(cgbench({"compare", "--threshold", "w:50%|1000", base, head}).exit_code, 0);
    const auto bad = cgbench({"compare", "--threshold", "2", base, head});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("invalid threshold '2'"), std::string::npos) << bad.err;

    // The threshold a run recorded is the gate, unless compare is given one.
    const auto loose = cgbench({"run", "-q", "--no-db", "--name", "w", "--threshold", "50%",
                                "--out", (dir / "loose.json").string(), "--",
                                program("workload"), "2000", "slow"});
    ASSERT_EQ(loose.exit_code, 0) << loose.err;
    const auto recorded = cgbench({"compare", base, (dir / "loose.json").string()});
    EXPECT_EQ(recorded.exit_code, 0) << recorded.out;
    EXPECT_NE(recorded.out.find("gate  cost +1.00% and 1,000; 50% recorded for 1 benchmark in HEAD"),
              std::string::npos)
        << recorded.out;
    EXPECT_EQ(cgbench({"compare", "--threshold", "1%", base, (dir / "loose.json").string()}).exit_code,
              1);

    const auto rules = cgbench({"config", "threshold", "2%", "parse/*:Ir=0.5%|1000"});
    EXPECT_EQ(rules.exit_code, 0) << rules.err;
    EXPECT_NE(rules.out.find("all         cost    +1.00% and 1,000  built-in"), std::string::npos)
        << rules.out;
    EXPECT_NE(rules.out.find("parse/*     Ir      +0.50% and 1,000  argument 'parse/*:Ir=0.5%|1000'"),
              std::string::npos)
        << rules.out;
    const auto fast = cgbench({"config", "threshold", "cost=fast"});
    EXPECT_EQ(fast.exit_code, 2);
    EXPECT_NE(fast.err.find("invalid threshold 'cost=fast'"), std::string::npos) << fast.err;
    EXPECT_EQ(cgbench({"config", "threshold"}, {.env = {{"CGBENCH_THRESHOLD", "nope"}}}).exit_code,
              2);
}

TEST(CompareE2E, ARegressionExitsOneAndNoChangeZero) {
    const auto dir = scratch("compare-basic");
    const auto db = dir / "history.db";
    record(db, "w", false, dir / "base.json");
    record(db, "w", true, dir / "head.json");
    record(db, "w", false, dir / "same.json");

    const auto reg =
        cgbench({"compare", (dir / "base.json").string(), (dir / "head.json").string()});
    EXPECT_EQ(reg.exit_code, 1) << reg.out << reg.err;
    // The change, computed here from the result files.
    const double base = read_json(dir / "base.json")["benchmarks"][0]["cost"].get<double>();
    const double head = read_json(dir / "head.json")["benchmarks"][0]["cost"].get<double>();
    const std::string pct = fmt::format("{:+.2f}%", (head - base) / base * 100);
    EXPECT_GT((head - base) / base, 0.01) << "the workload's slow mode must exceed the default";
    EXPECT_NE(reg.out.find("REGRESSION"), std::string::npos) << reg.out;
    EXPECT_NE(reg.out.find("FAIL  1 of 1 benchmark got more expensive (worst: " + pct + " w)"),
              std::string::npos)
        << reg.out;

    const auto same =
        cgbench({"compare", (dir / "base.json").string(), (dir / "same.json").string()});
    EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
    EXPECT_NE(same.out.find("PASS"), std::string::npos);
    const auto better =
        cgbench({"compare", (dir / "head.json").string(), (dir / "base.json").string()});
    EXPECT_EQ(better.exit_code, 0);
    EXPECT_NE(better.out.find("improvement"), std::string::npos) << better.out;

    // Looser thresholds let the change through; per-benchmark rules too.
    EXPECT_EQ(cgbench({"compare", "--threshold", "cost=5%", (dir / "base.json").string(),
                       (dir / "head.json").string()})
                  .exit_code,
              0);
    EXPECT_EQ(cgbench({"compare", "--threshold", "w:cost=off", (dir / "base.json").string(),
                       (dir / "head.json").string()})
                  .exit_code,
              0);
    EXPECT_EQ(cgbench({"compare", (dir / "base.json").string(), (dir / "head.json").string()},
                      {.env = {{"CGBENCH_THRESHOLD", "cost=50%"}}})
                  .exit_code,
              0);

    // Stored runs compare exactly like their result files.
    const auto ids = run_ids(db);
    ASSERT_EQ(ids.size(), 3u);
    auto from_db = nlohmann::json::parse(
        cgbench({"compare", "--db", db.string(), "--format", "json", ids[0], ids[1]}).out);
    auto from_files =
        nlohmann::json::parse(cgbench({"compare", "--format", "json", (dir / "base.json").string(),
                                       (dir / "head.json").string()})
                                  .out);
    // The history keeps fewer functions than a result file (the rest folded into
    // "(other)"), so only the function that moved most is the same.
    auto& moved_db = from_db["benchmarks"][0]["functions_moved"];
    auto& moved_files = from_files["benchmarks"][0]["functions_moved"];
    ASSERT_FALSE(moved_db.empty());
    EXPECT_EQ(moved_db[0], moved_files[0]);
    from_db["benchmarks"][0].erase("functions_moved");
    from_files["benchmarks"][0].erase("functions_moved");
    EXPECT_EQ(from_db["benchmarks"], from_files["benchmarks"]);
    EXPECT_EQ(from_db["fingerprint"], from_files["fingerprint"]);
}

TEST(CompareE2E, GitRefsAndTheMergeBase) {
    const auto repo = scratch("compare-git");
    exec::PosixProcessRunner runner;
    const exec::Git git(repo, exec::current_environment(), runner);
    ASSERT_TRUE(testing_fixtures::init_repo(git));
    const Options in_repo{.unset = {"CGBENCH_DB"}, .cwd = repo.string()};
    const auto db = repo / ".cgbench" / "history.db";
    record(db, "w", false, {}, in_repo);
    ASSERT_TRUE(git.run({"checkout", "-q", "-b", "feature"}));
    ASSERT_TRUE(testing_fixtures::commit_empty(git));
    record(db, "w", true, {}, in_repo);

    const auto gate = cgbench({"compare"}, in_repo);
    EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
    EXPECT_NE(gate.out.find("merge base with main"), std::string::npos) << gate.out;
    EXPECT_EQ(cgbench({"compare", "main", "feature"}, in_repo).exit_code, 1);
    EXPECT_EQ(cgbench({"compare", "main"}, in_repo).exit_code, 1);
    EXPECT_EQ(cgbench({"compare", "HEAD", "main"}, in_repo).exit_code, 0);
    const auto unknown = cgbench({"compare", "no-such-ref"}, in_repo);
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("'no-such-ref' is neither a result file"), std::string::npos);
    const auto no_base = cgbench({"compare", "--base-branch", "nope"}, in_repo);
    EXPECT_EQ(no_base.exit_code, 2);
    EXPECT_NE(no_base.err.find("merge base"), std::string::npos) << no_base.err;

    // On main itself HEAD is its own merge base: the error says so and points at --previous.
    ASSERT_TRUE(git.run({"checkout", "-q", "main"}));
    const auto main_db = (repo / ".cgbench" / "main.db").string();
    record(main_db, "w", false, {}, in_repo);
    const auto on_main = cgbench({"compare", "--db", main_db}, in_repo);
    EXPECT_EQ(on_main.exit_code, 2);
    EXPECT_NE(on_main.err.find("is on main, so it is its own merge base"), std::string::npos)
        << on_main.err;
    EXPECT_NE(on_main.err.find("--previous"), std::string::npos) << on_main.err;
}

TEST(CompareE2E, HostileNamesSurviveTheDatabaseAndEveryFormat) {
    const auto db = scratch("compare-hostile") / "history.db";
    record(db, kHostile, false);
    record(db, kHostile, true);
    const auto ids = run_ids(db);
    ASSERT_EQ(ids.size(), 2u);
    const auto report = [&](const std::string& format) {
        const auto r =
            cgbench({"compare", "--db", db.string(), "--format", format, ids[0], ids[1]});
        EXPECT_EQ(r.exit_code, 1) << format << ": " << r.err;
        return r.out;
    };

    const std::string md = report("markdown");
    EXPECT_EQ(md.find("<img"), std::string::npos) << md;
    std::size_t rows = 0;
    for (auto at = md.find("| &lt;img"); at != std::string::npos;
         at = md.find("| &lt;img", at + 1)) {
        const auto pipes = unescaped_pipes(md.substr(at, md.find('\n', at) - at));
        EXPECT_TRUE(pipes == 6 || pipes == 9) << pipes;
        ++rows;
    }
    EXPECT_EQ(rows, 2u) << md;

    const std::string xml = report("junit");
    EXPECT_EQ(xml.find("<img"), std::string::npos);
    EXPECT_EQ(occurrences(xml, "<failure "), 1u) << xml;
    EXPECT_EQ(occurrences(xml, "<testcase "), 1u);
    EXPECT_NE(xml.find("name=\"&lt;img src=x onerror=alert(1)&gt;|**x**\""), std::string::npos);

    const auto json = nlohmann::json::parse(report("json"));
    EXPECT_EQ(json["benchmarks"][0]["name"], kHostile);
    EXPECT_NE(report("console").find(kHostile), std::string::npos);

    const auto series = cgbench({"history", kHostile, "--db", db.string(), "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(series.out).size(), 2u);
    const auto bmf = cgbench({"export", "--db", db.string(), "--format", "bencher", ids[1]});
    ASSERT_EQ(bmf.exit_code, 0) << bmf.err;
    EXPECT_TRUE(nlohmann::json::parse(bmf.out).contains(kHostile));
    const auto gab =
        cgbench({"export", "--db", db.string(), "--format", "github-action-benchmark"});
    ASSERT_EQ(gab.exit_code, 0) << gab.err;
    EXPECT_EQ(nlohmann::json::parse(gab.out)[0]["name"], kHostile);
}

TEST(CompareE2E, DifferentMeasurementsAreRefusedUnlessForced) {
    const auto dir = scratch("compare-fingerprint");
    const auto base = dir / "base.json";
    const auto head = dir / "head.json";
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--weights", "kcachegrind", "--name", "w", "--out",
                       base.string(), "--", program("workload"), "2000"})
                  .exit_code,
              0);
    record(dir / "h.db", "w", false, head);
    const auto refused = cgbench({"compare", base.string(), head.string()});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("weights: 1/10/100 vs 1/5/35"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--force"), std::string::npos);
    for (const std::string format : {"console", "markdown", "json", "junit"}) {
        const auto forced =
            cgbench({"compare", "--force", "--format", format, base.string(), head.string()});
        EXPECT_NE(forced.exit_code, 2) << format;
        EXPECT_NE(forced.out.find("weights: 1/10/100 vs 1/5/35"), std::string::npos)
            << format << "\n"
            << forced.out;
        EXPECT_NE(forced.err.find("warning"), std::string::npos) << forced.err;
    }
}

TEST(CompareE2E, BadInputAndTheReportFile) {
    const auto dir = scratch("compare-input");
    record(dir / "h.db", "w", false, dir / "a.json");
    std::ofstream(dir / "garbage.json") << "{ not json";
    const auto a = (dir / "a.json").string();
    const auto garbage = cgbench({"compare", a, (dir / "garbage.json").string()});
    EXPECT_EQ(garbage.exit_code, 2);
    EXPECT_NE(garbage.err.find("not valid JSON"), std::string::npos) << garbage.err;
    EXPECT_EQ(cgbench({"compare", "--no-db", a, "nothing-here.json"}).exit_code, 2);
    EXPECT_EQ(cgbench({"compare", "--threshold", "cost=fast", a, a}).exit_code, 2);
    EXPECT_EQ(cgbench({"compare", "--format", "yaml", a, a}).exit_code, 2);
    EXPECT_EQ(cgbench({"compare", "--out", "/nonexistent-dir/x.md", a, a}).exit_code, 2);

    const auto out = dir / "comment.md";
    const auto r = cgbench({"compare", "--format", "markdown", "--out", out.string(), a, a});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "PASS  No benchmark got more expensive; 1 unchanged\n");
    EXPECT_NE(util::read_file(out).find("### cgbench ✅"), std::string::npos);
}

}  // namespace cgbench::e2e
