// `cgbench steps` and `cgbench bisect` on a real repository whose commits were each built
// and measured: the step is found at the commit that made it, labelled code, with the
// function that moved; the one-commit blip is not a step; a fingerprint change is
// environment; bisect finds the step's commit, reusing what the history holds.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "e2e/harness.hpp"
#include "e2e/measured_repo.hpp"
#include "sqlite_store/sqlite.hpp"
#include "unit/flame_check.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// c0..c7 on main, each measured: a +10% step in accumulate() at c3, a one-commit blip at
// c4 (undone at c5), docs-only commits, and c7 measured with --cpu-baseline native.
struct History {
    std::unique_ptr<MeasuredRepo> repo;
    fs::path db;
};

const History& measured_history() {
    static const History h = [] {
        History out;
        // One repository per process: ctest runs these tests side by side, each building it.
        out.repo =
            std::make_unique<MeasuredRepo>(scratch("steps-repo-" + std::to_string(::getpid())));
        out.db = out.repo->dir() / ".cgbench" / "history.db";
        auto& r = *out.repo;
        const std::vector<std::tuple<long, std::string, std::vector<std::string>>> plan = {
            {100000, "initial version", {}},
            {100000, "docs: describe the work", {}},
            {100000, "docs: more", {}},
            {110000, "accumulate: ten percent more steps", {}},
            {160000, "try a bigger n", {}},
            {110000, "revert the bigger n", {}},
            {110000, "docs: again", {}},
            {110000, "ci: native CPU baseline", {"--cpu-baseline", "native"}},
        };
        for (const auto& [n, subject, options] : plan) {
            r.program(n);
            if (subject.rfind("docs", 0) == 0) r.write("README", subject);
            if (!options.empty()) r.write("ci.txt", subject);  // the commit changes a file
            r.commit(subject);
            r.measure(out.db, options);
        }
        return out;
    }();
    return h;
}

// A copy of the measured history's database, for a test that changes it.
fs::path copy_of(const History& h, const std::string& name) {
    const auto db = scratch(name) / "history.db";
    fs::create_directories(db.parent_path());
    fs::copy_file(h.db, db);
    for (const auto& side : {"-wal", "-shm"}) {
        if (fs::exists(h.db.string() + side))
            fs::copy_file(h.db.string() + side, db.string() + side);
    }
    return db;
}

nlohmann::json history_json(const History& h) {
    const auto r = cgbench({"history", "work", "--db", h.db.string(), "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST(StepsE2E, TheStepItsCommitAndWhatMoved) {
    const auto& h = measured_history();
    const auto& commits = h.repo->commits();
    const auto r = cgbench({"steps", "-v", "--db", h.db.string(), "--format", "json"},
                           {.cwd = h.repo->dir().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["branches"].size(), 1u) << r.out;
    const auto& main = doc["branches"][0];
    EXPECT_EQ(main["branch"], "main");
    EXPECT_EQ(main["commits"], 8);
    // The costs as `history` reads them, an independent path to the same numbers.
    const auto series = history_json(h);
    ASSERT_EQ(series.size(), 8u);
    const auto cost = [&](std::size_t i) { return series[i]["cost"].get<std::uint64_t>(); };
    EXPECT_EQ(cost(0), cost(2)) << "docs commits measure the same";
    ASSERT_GE(main["events"].size(), 1u) << r.out;
    const auto& code = main["events"][0];
    EXPECT_EQ(code["commit"], commits[3]);
    EXPECT_EQ(code["subject"], "accumulate: ten percent more steps");
    ASSERT_EQ(code["steps"].size(), 1u);
    const auto& step = code["steps"][0];
    EXPECT_EQ(step["label"], "code");
    EXPECT_EQ(step["before"]["commit"], commits[2]);
    EXPECT_EQ(step["before"]["cost"], cost(2));
    EXPECT_EQ(step["after"]["cost"], cost(3));
    EXPECT_DOUBLE_EQ(step["change"].get<double>(),
                     (static_cast<double>(cost(3)) - static_cast<double>(cost(2))) /
                         static_cast<double>(cost(2)));
    EXPECT_EQ(step["instructions_moved"], true);
    ASSERT_FALSE(step["functions"].empty());
    EXPECT_EQ(step["functions"][0]["name"], "accumulate") << step["functions"].dump();
    EXPECT_GT(step["functions"][0]["delta"].get<std::int64_t>(), 0);
    // The blip at c4 is no step.
    for (const auto& e : main["events"]) {
        EXPECT_NE(e["commit"], commits[4]);
        EXPECT_NE(e["commit"], commits[5]);
    }
    EXPECT_EQ(main["blip_count"], 1);
    ASSERT_EQ(main["blips"].size(), 1u) << "listed with -v";
    EXPECT_EQ(main["blips"][0]["at"]["commit"], commits[4]);
    // c7 was measured with another fingerprint: a new epoch, and never a code step.
    ASSERT_EQ(main["epochs"].size(), 2u);
    EXPECT_EQ(main["epochs"][1]["from"]["commit"], commits[7]);
    EXPECT_EQ(main["epochs"][1]["changes"][0], "CPU baseline: portable vs native");
    for (const auto& e : main["events"]) {
        if (e["commit"] != commits[7]) continue;
        EXPECT_EQ(e["steps"][0]["label"], "environment") << e.dump();
    }
    EXPECT_TRUE(series[7]["change"].is_null()) << "history does not compare across epochs";
    EXPECT_EQ(series[7]["epoch"], 2);
}

TEST(StepsE2E, ConsoleAndOneBenchmark) {
    const auto& h = measured_history();
    const auto r =
        cgbench({"steps", "work", "--db", h.db.string()}, {.cwd = h.repo->dir().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("main (default branch): 8 commits measured"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(h.repo->commits()[3].substr(0, 7) + "  "), std::string::npos);
    EXPECT_NE(r.out.find("accumulate: ten percent more steps"), std::string::npos);
    EXPECT_NE(r.out.find("accumulate +"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 one-commit blip (-v lists them)"), std::string::npos) << r.out;
    const auto verbose = cgbench({"steps", "work", "-v", "--db", h.db.string()});
    EXPECT_NE(verbose.out.find("One-commit blips"), std::string::npos) << verbose.out;
    const auto unknown = cgbench({"steps", "wrok", "--db", h.db.string()});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("did you mean 'work'?"), std::string::npos) << unknown.err;
    const auto branch = cgbench({"steps", "--branch", "nope", "--db", h.db.string()});
    EXPECT_EQ(branch.exit_code, 2);
    EXPECT_NE(branch.err.find("recorded branches: main"), std::string::npos) << branch.err;
}

TEST(StepsE2E, FlameDrawsTheCodeStepBetweenItsTwoCommits) {
    const auto& h = measured_history();
    const auto& commits = h.repo->commits();
    const auto dir = scratch("steps-flame");
    const auto r = cgbench(
        {"steps", "work", "--db", h.db.string(), "--flame", dir.string(), "--build", "./build.sh"},
        {.cwd = h.repo->dir().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("accumulate: ten percent more steps"), std::string::npos) << r.out;
    // Only the code step is drawn (c7's is environment), named by its commit.
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        files.push_back(e.path().filename().string());
    ASSERT_EQ(files, std::vector<std::string>{"work-" + commits[3].substr(0, 12) + ".svg"})
        << r.err;
    EXPECT_NE(r.err.find((dir / files[0]).string()), std::string::npos) << r.err;
    const auto svg = util::read_file(dir / files[0]);
    const auto moved = testing_flame::drawn_frame(svg, "accumulate");
    ASSERT_GT(moved.width, 0) << svg.substr(0, 4000);
    EXPECT_GT(moved.red, moved.blue) << "costlier after the step: red, " << moved.fill;
    EXPECT_NE(svg.find(commits[2].substr(0, 12) + " "), std::string::npos)
        << "the subtitle names the commit before the step";

    const auto no_build = cgbench({"steps", "--db", h.db.string(), "--flame", dir.string()});
    EXPECT_EQ(no_build.exit_code, 2);
    EXPECT_NE(no_build.err.find("--build"), std::string::npos) << no_build.err;
}

TEST(StepsE2E, BisectFindsTheStepReusingTheHistory) {
    const auto& h = measured_history();
    const auto& commits = h.repo->commits();
    // A history holding only GOOD and BAD (as CI that measures releases would have).
    const auto db = copy_of(h, "bisect-db");
    {
        sqlite_store::Database copy(db, sqlite_store::Database::Mode::Existing);
        const auto others = fmt::format(
            "(SELECT seq FROM runs WHERE git_commit NOT IN ('{}', '{}'))", commits[0], commits[6]);
        copy.exec("DELETE FROM result_functions WHERE run IN " + others);
        copy.exec("DELETE FROM result_lines WHERE run IN " + others);
        copy.exec("DELETE FROM results WHERE run IN " + others);
        copy.exec("DELETE FROM runs WHERE seq IN " + others);
        ASSERT_EQ(copy.query_int("SELECT COUNT(*) FROM runs"), 2);
    }
    const auto bisect = [&] {
        return cgbench({"bisect", commits[0], commits[6], "--build", "./build.sh", "--db",
                        db.string(), "--format", "json"},
                       {.cwd = h.repo->dir().string()});
    };
    const auto r = bisect();
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["found"], true);
    EXPECT_EQ(doc["first_moved"]["commit"], commits[3]) << r.out;
    EXPECT_EQ(doc["first_moved"]["subject"], "accumulate: ten percent more steps");
    EXPECT_EQ(doc["previous"]["commit"], commits[2]);
    EXPECT_EQ(doc["commits"], 7);
    EXPECT_GE(doc["from_history"].get<int>(), 2) << "GOOD and BAD were recorded";
    ASSERT_EQ(doc["benchmarks"].size(), 1u);
    const auto series = history_json(h);
    EXPECT_EQ(doc["benchmarks"][0]["before"], series[2]["cost"]);
    EXPECT_EQ(doc["benchmarks"][0]["after"], series[3]["cost"]);
    EXPECT_EQ(doc["benchmarks"][0]["functions"][0]["name"], "accumulate");
    // Its measurements went into the history: bisecting again builds nothing.
    const auto again = nlohmann::json::parse(bisect().out);
    EXPECT_EQ(again["measured"], 0) << again.dump();
    EXPECT_EQ(again["first_moved"]["commit"], commits[3]);
    // A GOOD that is not an ancestor of BAD, and an unknown ref.
    const auto backwards =
        cgbench({"bisect", commits[6], commits[0], "--build", "true", "--db", db.string()},
                {.cwd = h.repo->dir().string()});
    EXPECT_EQ(backwards.exit_code, 2);
    EXPECT_NE(backwards.err.find("is not an ancestor of BAD"), std::string::npos) << backwards.err;
    EXPECT_EQ(
        cgbench({"bisect", "nope", "HEAD", "--build", "true"}, {.cwd = h.repo->dir().string()})
            .exit_code,
        2);
}

TEST(StepsE2E, PruneKeepsTheDefaultBranchsNewestAndGivesTheSpaceBack) {
    const auto& h = measured_history();
    const auto db = copy_of(h, "prune-db");
    const auto runs = [&] {
        sqlite_store::Database d(db, sqlite_store::Database::Mode::Existing);
        return d.query_int("SELECT COUNT(*) FROM runs");
    };
    const auto prune = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"prune", "--db", db.string()});
        return cgbench(args);
    };
    const auto none = prune({});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("--older-than AGE, --branch B, --keep-last N or --dirty"),
              std::string::npos)
        << none.err;
    EXPECT_EQ(prune({"--older-than", "soon"}).exit_code, 2);
    // A date still to come would select every run: refused (see what it would select with
    // --dry-run). 0d does it on purpose.
    EXPECT_EQ(prune({"--older-than", "2999-01-01"}).exit_code, 2);
    // Every run is older than now, but the default branch's newest (100) are never dropped.
    // Start times have whole seconds: a run started in this second is not yet "before now".
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    const auto old = prune({"--older-than", "0d"});
    ASSERT_EQ(old.exit_code, 0) << old.err;
    EXPECT_NE(
        old.out.find("nothing to remove: 0 of 8 runs; 8 runs of the default branch main kept"),
        std::string::npos)
        << old.out;
    const auto dry = prune({"--older-than", "2999-01-01", "--keep-last", "3", "--dry-run"});
    ASSERT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_NE(dry.out.find("would remove 5 of 8 runs"), std::string::npos) << dry.out;
    EXPECT_EQ(runs(), 8) << "a dry run changes nothing";
    const auto pruned = prune({"--older-than", "0d", "--keep-last", "3"});
    ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
    EXPECT_NE(pruned.out.find("removed 5 of 8 runs (5 results"), std::string::npos) << pruned.out;
    EXPECT_EQ(runs(), 3);
    {
        sqlite_store::Database d(db, sqlite_store::Database::Mode::Existing);
        EXPECT_EQ(
            d.query_int("SELECT COUNT(*) FROM results WHERE run NOT IN (SELECT seq FROM runs)"), 0);
        EXPECT_EQ(d.query_int("SELECT COUNT(*) FROM result_functions WHERE run NOT IN "
                              "(SELECT seq FROM runs)"),
                  0);
        EXPECT_EQ(d.query_int("SELECT COUNT(*) FROM result_lines WHERE run NOT IN "
                              "(SELECT seq FROM runs)"),
                  0);
        EXPECT_EQ(d.query_int("SELECT COUNT(*) FROM symbols WHERE id NOT IN (SELECT symbol FROM "
                              "result_functions UNION SELECT symbol FROM result_lines)"),
                  0);
        EXPECT_EQ(d.query_int("SELECT COUNT(*) FROM line_texts WHERE id NOT IN "
                              "(SELECT text FROM result_lines WHERE text IS NOT NULL)"),
                  0);
    }
    // What is left is the newest three commits, still a history that reads.
    const auto history = cgbench({"history", "work", "--db", db.string(), "--format", "json"});
    ASSERT_EQ(history.exit_code, 0) << history.err;
    const auto left = nlohmann::json::parse(history.out);
    ASSERT_EQ(left.size(), 3u);
    EXPECT_EQ(left[0]["commit"], h.repo->commits()[5]);
    // Nothing matches any more: nothing to remove.
    const auto again = prune({"--keep-last", "3"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.out.find("nothing to remove"), std::string::npos) << again.out;
}

}  // namespace cgbench::e2e
