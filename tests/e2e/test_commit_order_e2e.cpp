// History on real repositories built and measured here, as a new user's would be: results
// recorded out of order (a late pipeline, a backfill) fall into commit order and `steps`
// names the step it names for in-order recording; `backfill` records past commits on their
// branch, survives a commit that does not build, and measures nothing twice; bisect's probes
// change no line; a shallow clone says its ancestry is unknown; suite-form bisect measures
// old commits with an untracked suite; a noisy program shows as not repeatable.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "e2e/harness.hpp"
#include "e2e/measured_repo.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// A repository of its own for each test (ctest runs them side by side).
std::unique_ptr<MeasuredRepo> repo(const std::string& name) {
    return std::make_unique<MeasuredRepo>(scratch(name + "-" + std::to_string(::getpid())));
}

nlohmann::json steps_json(const fs::path& db, const std::string& cwd) {
    const auto r = cgbench({"steps", "--db", db.string(), "--format", "json"}, {.cwd = cwd});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

const nlohmann::json& branch(const nlohmann::json& steps, const std::string& name) {
    for (const auto& b : steps["branches"]) {
        if (b["branch"] == name) return b;
    }
    static const nlohmann::json none;
    ADD_FAILURE() << "no branch " << name << " in " << steps.dump();
    return none;
}

// The commits of a branch's events, in order.
std::vector<std::string> event_commits(const nlohmann::json& branch) {
    std::vector<std::string> out;
    for (const auto& e : branch["events"])
        out.push_back(e["commit"].get<std::string>());
    return out;
}

}  // namespace

TEST(CommitOrderE2E, OutOfOrderRecordingFindsTheStepInOrderRecordingFinds) {
    // main: c0, c1, a merge of `feature` (where accumulate() does 10% more), c3.
    auto r = repo("order");
    r->program(100000);
    const auto c0 = r->commit("initial version");
    r->write("README", "one");
    const auto c1 = r->commit("docs: readme");
    r->git({"checkout", "-q", "-b", "feature"});
    r->program(110000);
    r->commit("accumulate: ten percent more steps");
    r->checkout("main");
    r->write("NOTES", "two");
    const auto c2 = r->commit("docs: notes");
    const auto merge = r->merge("feature", "Merge branch 'feature'");
    r->write("README", "three");
    const auto c3 = r->commit("docs: again");
    // One set of measurements, recorded as a late pipeline and a backfill would: newest first.
    const auto results = scratch("order-results");
    const std::vector<std::string> measured = {c3, c0, merge, c2, c1};
    const auto shuffled = scratch("order-db") / "shuffled.db";
    for (std::size_t i = 0; i < measured.size(); ++i) {
        r->checkout(measured[i]);
        r->measure(shuffled, {"--out", (results / fmt::format("{}.json", i)).string()},
                   {{"CGBENCH_BRANCH", "main"}});
    }
    // The same results recorded in commit order (their start times rewritten to that order).
    const auto in_order = scratch("order-db-in-order") / "in-order.db";
    const std::vector<std::string> line = {c0, c1, c2, merge, c3};
    const auto ordered = scratch("order-ordered");
    for (std::size_t i = 0; i < measured.size(); ++i) {
        auto doc = read_json(results / fmt::format("{}.json", i));
        const auto at = std::find(line.begin(), line.end(), measured[i]) - line.begin();
        doc["run"]["started"] = fmt::format("2020-01-01T00:00:0{}Z", at);
        std::ofstream(ordered / fmt::format("{}.json", at)) << doc.dump();
    }
    const auto imported = cgbench({"import", "--db", in_order.string(), ordered.string()});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;

    // Read outside the repository: the subjects come from the history, not from git.
    const auto elsewhere = scratch("order-elsewhere").string();
    for (const auto& db : {shuffled, in_order}) {
        const auto doc = steps_json(db, elsewhere);
        const auto& main = branch(doc, "main");
        EXPECT_EQ(main["commits"], 5);
        ASSERT_EQ(event_commits(main), std::vector<std::string>{merge}) << doc.dump();
        const auto& step = main["events"][0]["steps"][0];
        EXPECT_EQ(step["label"], "code");
        EXPECT_EQ(step["before"]["commit"], c2);
        EXPECT_EQ(main["events"][0]["subject"], "Merge branch 'feature'");
        EXPECT_EQ(main["blip_count"], 0);
        EXPECT_EQ(doc["ordering"]["by_ancestry"], 5);
        EXPECT_TRUE(doc["ordering"]["notes"].empty()) << doc["ordering"].dump();
    }
    // `history` lists the shuffled recording in commit order, dated by commit.
    const auto h = cgbench({"history", "work", "--db", shuffled.string(), "--format", "json"});
    ASSERT_EQ(h.exit_code, 0) << h.err;
    const auto series = nlohmann::json::parse(h.out);
    ASSERT_EQ(series.size(), 5u);
    for (std::size_t i = 0; i < line.size(); ++i) {
        EXPECT_EQ(series[i]["commit"], line[i]) << i;
        EXPECT_TRUE(series[i]["commit_time"].is_string());
    }
    const auto console = cgbench({"history", "work", "--db", shuffled.string()});
    EXPECT_NE(console.out.find("in commit order"), std::string::npos) << console.out;
    EXPECT_NE(console.out.find("committed"), std::string::npos);
    EXPECT_NE(console.out.find("measured"), std::string::npos);
}

TEST(CommitOrderE2E, BackfillThenBisectLeavesTheLinesAsTheyWere) {
    // c1..c19 after the first commit; accumulate() does 10% more from c10; c7 does not build.
    auto r = repo("backfill");
    r->write("build.sh", "#!/bin/sh\nset -e\ntest ! -e BROKEN\ncc -O1 -g -o work work.c\n");
    r->program(100000);
    const auto c0 = r->commit("initial version");
    for (int i = 1; i <= 19; ++i) {
        if (i == 10) r->program(110000);
        if (i == 7) r->write("BROKEN", "");
        if (i == 8) fs::remove(r->dir() / "BROKEN");
        r->write("README", std::to_string(i));
        r->commit(fmt::format("change {}", i));
    }
    const auto& c = r->commits();  // c[i] is commit i
    const auto db = scratch("backfill-db") / "history.db";
    const auto backfill = [&] {
        return cgbench({"backfill", c0 + "..main", "--every", "2", "--build", "./build.sh", "--db",
                        db.string(), "--format", "json"},
                       {.cwd = r->dir().string()});
    };
    const auto first = backfill();
    EXPECT_EQ(first.exit_code, 3) << "a commit did not build" << first.err;
    EXPECT_NE(first.err.find(c[7].substr(0, 7) + " build failed"), std::string::npos) << first.err;
    EXPECT_NE(first.err.find("backfill [1/10]"), std::string::npos) << "progress";
    const auto doc = nlohmann::json::parse(first.out);
    EXPECT_EQ(doc["branch"], "main");
    EXPECT_EQ(doc["in_range"], 19);
    ASSERT_EQ(doc["commits"].size(), 10u);
    EXPECT_EQ(doc["commits"][0]["commit"], c[1]) << "every 2nd, back from the newest";
    EXPECT_EQ(doc["commits"][9]["commit"], c[19]);
    EXPECT_EQ(doc["totals"]["measured"], 9);
    EXPECT_EQ(doc["totals"]["build failed"], 1);
    EXPECT_EQ(doc["commits"][3]["outcome"], "build failed");
    EXPECT_EQ(doc["commits"][3]["recorded"], false);

    const auto before = steps_json(db, r->dir().string());
    ASSERT_EQ(before["branches"].size(), 1u) << "all on main, none on (detached)";
    const auto& main = branch(before, "main");
    EXPECT_EQ(main["commits"], 9);
    ASSERT_EQ(event_commits(main), std::vector<std::string>{c[11]}) << main.dump();
    EXPECT_EQ(main["events"][0]["steps"][0]["before"]["commit"], c[9]);

    // Again: every commit is in the history under this fingerprint; only c7 is tried again.
    const auto second = backfill();
    const auto again = nlohmann::json::parse(second.out);
    EXPECT_EQ(again["totals"]["in the history"], 9) << again.dump();
    std::size_t builds = 0;
    for (auto at = second.err.find("building"); at != std::string::npos;
         at = second.err.find("building", at + 1))
        ++builds;
    EXPECT_EQ(builds, 1u) << "only c7 is built again:\n" << second.err;
    EXPECT_EQ(again["totals"]["measured"], 0);

    // Bisect between two backfilled commits measures c10 as a probe.
    const auto bisect = cgbench(
        {"bisect", c[9], c[11], "--build", "./build.sh", "--db", db.string(), "--format", "json"},
        {.cwd = r->dir().string()});
    ASSERT_EQ(bisect.exit_code, 0) << bisect.err;
    const auto found = nlohmann::json::parse(bisect.out);
    EXPECT_EQ(found["first_moved"]["commit"], c[10]);
    EXPECT_GE(found["measured"].get<int>(), 1);
    const auto after = steps_json(db, r->dir().string());
    EXPECT_EQ(after["branches"], before["branches"]) << "the probes changed a line";
    const auto h = nlohmann::json::parse(
        cgbench({"history", "work", "--db", db.string(), "--format", "json"}).out);
    const auto probes = std::count_if(h.begin(), h.end(),
                                      [](const auto& p) { return p["recorded_by"] == "bisect"; });
    EXPECT_GE(probes, 1);
    const auto backfilled = std::count_if(h.begin(), h.end(), [](const auto& p) {
        return p["recorded_by"] == "backfill" && p["branch"] == "main";
    });
    EXPECT_EQ(backfilled, 9);
}

TEST(CommitOrderE2E, AShallowCloneSaysItsAncestryIsUnknown) {
    auto origin = repo("shallow-origin");
    origin->date_commits_from(1600000000);
    origin->program(100000);
    for (int i = 0; i < 6; ++i) {
        if (i == 4) origin->program(110000);
        origin->write("README", std::to_string(i));
        origin->commit(fmt::format("change {}", i));
    }
    const auto& c = origin->commits();
    const auto dir = scratch("shallow-clone-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    origin->git({"clone", "-q", "--depth", "3", "file://" + origin->dir().string(), dir.string()});
    MeasuredRepo clone(dir);  // adds nothing: the clone has its files
    const auto db = scratch("shallow-db") / "history.db";
    const auto out = scratch("shallow-out") / "r.json";
    // c5 (HEAD) first, then c3 and c4 checked out.
    clone.measure(db, {"--out", out.string()});
    const auto head = read_json(out);
    EXPECT_EQ(head["run"]["git"]["shallow"], true);
    EXPECT_FALSE(head["run"]["git"].contains("first_parent_depth"));
    EXPECT_EQ(head["run"]["git"]["parents"][0], c[4]);
    EXPECT_EQ(head["run"]["git"]["subject"], "change 5");
    for (const int i : {3, 4}) {
        clone.checkout(c[i]);
        clone.measure(db, {}, {{"CGBENCH_BRANCH", "main"}});
    }
    const auto doc = steps_json(db, dir.string());
    const auto& main = branch(doc, "main");
    EXPECT_EQ(event_commits(main), std::vector<std::string>{c[4]}) << main.dump();
    EXPECT_EQ(doc["ordering"]["by_commit_time"], 3);
    ASSERT_FALSE(doc["ordering"]["notes"].empty());
    EXPECT_NE(doc["ordering"]["notes"][0].get<std::string>().find("shallow clone"),
              std::string::npos);
    const auto console = cgbench({"steps", "--db", db.string()}, {.cwd = dir.string()});
    EXPECT_NE(console.out.find("note: 3 runs recorded in a shallow clone placed by commit time"),
              std::string::npos)
        << console.out;
    // A range reaching past the clone's boundary names the missing commit.
    const auto past =
        cgbench({"backfill", c[0] + "..main", "--build", "./build.sh", "--db", db.string()},
                {.cwd = dir.string()});
    EXPECT_EQ(past.exit_code, 2);
    EXPECT_NE(past.err.find("'" + c[0] + "' is not a commit of this repository"), std::string::npos)
        << past.err;
    EXPECT_NE(past.err.find("--unshallow"), std::string::npos) << past.err;
}

TEST(CommitOrderE2E, SuiteFormBisectMeasuresOldCommitsWithAnUntrackedSuite) {
    auto r = repo("untracked-suite");
    r->write(".gitignore", "work\n.cgbench/\ncgbench.toml\n");  // the suite is never committed
    r->program(100000);
    const auto c0 = r->commit("initial version");
    for (int i = 1; i <= 4; ++i) {
        if (i == 2) r->program(110000);
        r->write("README", std::to_string(i));
        r->commit(fmt::format("change {}", i));
    }
    const auto& c = r->commits();
    const auto db = (scratch("untracked-db") / "history.db").string();
    const auto cwd = r->dir().string();
    const auto found =
        cgbench({"bisect", c0, "main", "--build", "./build.sh", "--db", db, "--format", "json"},
                {.cwd = cwd});
    ASSERT_EQ(found.exit_code, 0) << found.err;
    const auto doc = nlohmann::json::parse(found.out);
    EXPECT_EQ(doc["found"], true);
    EXPECT_EQ(doc["first_moved"]["commit"], c[2]);
    EXPECT_TRUE(doc["skipped"].empty());
    // Each commit's own suite: there is none, so BAD is refused before anything is built (a
    // history without the commits: the probes above would answer from it).
    const auto marker = scratch("untracked-marker") / "built";
    const auto own = cgbench({"bisect", c0, "main", "--suite-from-commit", "--build",
                              "touch " + marker.string() + " && ./build.sh", "--db",
                              (scratch("untracked-own-db") / "history.db").string()},
                             {.cwd = cwd});
    EXPECT_EQ(own.exit_code, 3);
    EXPECT_NE(own.err.find("the suite file cgbench.toml is not in this commit"), std::string::npos)
        << own.err;
    EXPECT_NE(own.err.find("leave out --suite-from-commit"), std::string::npos) << own.err;
    EXPECT_FALSE(fs::exists(marker)) << "a commit without the suite was built";
    // Below the gate: the largest move and the threshold that would bisect it.
    const auto within =
        cgbench({"bisect", c0, "main", "--threshold", "50%", "--build", "./build.sh", "--db", db},
                {.cwd = cwd});
    ASSERT_EQ(within.exit_code, 0) << within.err;
    EXPECT_NE(within.out.find("nothing to bisect"), std::string::npos) << within.out;
    const auto hint = within.out.find("--threshold ");
    ASSERT_NE(hint, std::string::npos) << within.out;
    EXPECT_NE(within.out.find("the largest move: work +"), std::string::npos) << within.out;
    const auto threshold =
        within.out.substr(hint + 12, within.out.find(' ', hint + 12) - hint - 12);
    const auto taken = cgbench({"bisect", c0, "main", "--threshold", threshold, "--build",
                                "./build.sh", "--db", db, "--format", "json"},
                               {.cwd = cwd});
    ASSERT_EQ(taken.exit_code, 0) << taken.err;
    EXPECT_EQ(nlohmann::json::parse(taken.out)["first_moved"]["commit"], c[2])
        << "the threshold offered bisects the move";
}

TEST(CommitOrderE2E, ANoisyProgramShowsAsNotRepeatable) {
    auto r = repo("noisy");
    r->noisy_program(200000);
    const auto db = scratch("noisy-db") / "history.db";
    for (int i = 0; i < 16; ++i) {
        r->write("README", std::to_string(i));
        r->commit(fmt::format("docs {}", i));
        r->measure(db);
    }
    const auto doc = steps_json(db, r->dir().string());
    const auto& main = branch(doc, "main");
    ASSERT_EQ(main["wobble"].size(), 1u);
    const auto& w = main["wobble"][0];
    EXPECT_EQ(w["repeatable"], false) << w.dump();
    EXPECT_GE(w["wobble_bound"].get<double>(), 0.001);
    EXPECT_GT(2 * w["noise_moves"].get<int>(), w["moves"].get<int>());
    const auto console = cgbench({"steps", "--db", db.string()}, {.cwd = r->dir().string()});
    EXPECT_NE(console.out.find("work: not repeatable (wobble ±"), std::string::npos) << console.out;
    const auto verbose = cgbench({"steps", "-v", "--db", db.string()});
    EXPECT_NE(verbose.out.find("Wobble bounds"), std::string::npos) << verbose.out;
    const auto page = scratch("noisy-report") / "r.html";
    ASSERT_EQ(cgbench({"report", "--db", db.string(), "--html", page.string()}).exit_code, 0);
    const auto html = util::read_file(page);
    EXPECT_NE(html.find("not repeatable (wobble ±"), std::string::npos);
}

}  // namespace cgbench::e2e
