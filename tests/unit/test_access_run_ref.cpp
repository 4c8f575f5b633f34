// Naming runs: result files, run ids, git refs and the merge base.

#include <gtest/gtest.h>

#include <fstream>

#include "access/history_url.hpp"
#include "access/memory_history.hpp"
#include "access/run_ref.hpp"
#include "base/errors.hpp"
#include "history/stored_runs.hpp"
#include "run_fixtures.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::access {

using namespace testing_fixtures;
using history::record_run;
using sqlite_store::SqliteHistory;

namespace {

// A repository with main at commit A and a branch `feature` one commit ahead (B).
struct Repo {
    fs::path dir;
    std::string a;
    std::string b;
};

Repo make_repo(const std::string& name) {
    Repo r{fresh_dir(name), {}, {}};
    exec::PosixProcessRunner runner;
    const exec::Git git(r.dir, exec::current_environment(), runner);
    EXPECT_TRUE(init_repo(git));
    r.a = git.run({"rev-parse", "HEAD"}).value_or("");
    EXPECT_TRUE(git.run({"checkout", "-q", "-b", "feature"}));
    EXPECT_TRUE(commit_empty(git));
    r.b = git.run({"rev-parse", "HEAD"}).value_or("");
    return r;
}

RunResult at(std::string id, const std::string& commit, std::string started) {
    auto r = run_at(std::move(id), {bench("x", 1000)}, std::move(started));
    r.git.commit = commit;
    return r;
}

}  // namespace

TEST(RunResolver, FilesRunIdsAndGitRefs) {
    const auto repo = make_repo("cgbench-ref-repo");
    const auto db = repo.dir / ".cgbench" / "history.db";
    {
        auto store = SqliteHistory::open_for_recording(db);
        record_run(*store, at("run-a", repo.a, "2026-11-22T01:00:00Z"));
        record_run(*store, at("run-b", repo.b, "2026-11-22T02:00:00Z"));
    }
    const auto file = repo.dir / "result.json";
    std::ofstream(file) << to_json(run("from-file", {bench("x", 5)})).dump();

    exec::PosixProcessRunner runner;
    RunResolver resolver(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                         history::SourceLines::Read);
    EXPECT_EQ(resolver.resolve(file.string()).run.id, "from-file");
    EXPECT_EQ(resolver.resolve("run-a").run.id, "run-a");
    const auto main = resolver.resolve("main");
    EXPECT_EQ(main.run.id, "run-a");
    EXPECT_EQ(main.label, "main (" + repo.a.substr(0, 10) + ")");
    EXPECT_EQ(resolver.resolve("HEAD").run.id, "run-b");
    EXPECT_EQ(resolver.resolve("HEAD").run_ids, std::vector<std::string>{"run-b"});
    EXPECT_THROW(resolver.resolve("HEAD", {"run-b"}), UsageError) << "nothing else at HEAD";
    EXPECT_EQ(resolver.latest().run.id, "run-b");
    const auto base = resolver.at_merge_base(resolver.latest(), std::nullopt);
    EXPECT_EQ(base.run.id, "run-a");
    EXPECT_NE(base.label.find("merge base with main"), std::string::npos) << base.label;
    EXPECT_THROW(resolver.at_merge_base(resolver.latest(), std::string("no-such-branch")),
                 UsageError);
    try {
        resolver.resolve("no-such-thing");
        FAIL() << "resolved nonsense";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("neither a result file"), std::string::npos);
    }
    EXPECT_THROW(resolver.resolve("HEAD~1^{tree}"), UsageError);
}

// The default branch watched: the previous run is the latest clean one recorded on the same
// branch and measured the same way, never HEAD's own.
TEST(RunResolver, ThePreviousRunOfABranch) {
    const auto repo = make_repo("cgbench-ref-previous");
    const auto db = repo.dir / ".cgbench" / "history.db";
    auto on = [&repo](std::string id, std::string branch, std::string started, bool dirty) {
        auto r = at(std::move(id), repo.a, std::move(started));
        r.git.branch = std::move(branch);
        r.git.dirty = dirty;
        return r;
    };
    exec::PosixProcessRunner runner;
    auto head = on("head", "main", "2026-11-22T09:00:00Z", false);
    {
        RunResolver empty(history_source(db.string()), repo.dir, exec::current_environment(),
                          runner, history::SourceLines::Read);
        EXPECT_FALSE(empty.previous_on_branch({head, "HEAD", {}, {}}))
            << "no database yet: no baseline, no error";
    }
    {
        auto store = SqliteHistory::open_for_recording(db);
        record_run(*store, on("old-main", "main", "2026-11-22T01:00:00Z", false));
        record_run(*store, on("new-main", "main", "2026-11-22T03:00:00Z", false));
        record_run(*store, on("dirty-main", "main", "2026-11-22T04:00:00Z", true));
        record_run(*store, on("feature", "feature", "2026-11-22T05:00:00Z", false));
        auto other = on("other-valgrind", "main", "2026-11-22T06:00:00Z", false);
        other.fingerprint.valgrind_version = "3.22.0";
        record_run(*store, other);
        record_run(*store, head);
    }
    RunResolver resolver(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                         history::SourceLines::Read);
    const auto previous = resolver.previous_on_branch({head, "HEAD", {}, {"head"}});
    ASSERT_TRUE(previous);
    EXPECT_EQ(previous->run.id, "new-main");
    EXPECT_EQ(previous->label, "previous run of main (" + repo.a.substr(0, 10) + ")");
    auto feature = head;
    feature.git.branch = "feature";
    feature.id = "feature-head";
    EXPECT_EQ(resolver.previous_on_branch({feature, "HEAD", {}, {}})->run.id, "feature");
    feature.git.branch = "nobody";
    EXPECT_FALSE(resolver.previous_on_branch({feature, "HEAD", {}, {}}));
    feature.git.branch.reset();
    EXPECT_THROW(resolver.previous_on_branch({feature, "HEAD", {}, {}}), UsageError);
    RunResolver no_db(std::nullopt, repo.dir, exec::current_environment(), runner,
                      history::SourceLines::Read);
    EXPECT_THROW(no_db.previous_on_branch({head, "HEAD", {}, {}}), UsageError);
}

TEST(RunResolver, ACommitWithoutRunsOrWithoutDatabase) {
    const auto repo = make_repo("cgbench-ref-empty");
    exec::PosixProcessRunner runner;
    RunResolver missing(history_source((repo.dir / "none.db").string()), repo.dir,
                        exec::current_environment(), runner, history::SourceLines::Read);
    try {
        missing.resolve("main");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("no history database"), std::string::npos) << e.what();
    }
    EXPECT_THROW(missing.latest(), UsageError);
    EXPECT_FALSE(fs::exists(repo.dir / "none.db")) << "lookups never create a database";

    const auto db = repo.dir / "h.db";
    {
        record_run(*SqliteHistory::open_for_recording(db),
                   at("only-b", repo.b, "2026-11-22T01:00:00Z"));
    }
    RunResolver resolver(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                         history::SourceLines::Read);
    try {
        resolver.resolve("main");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("no run recorded at commit"), std::string::npos);
    }
    RunResolver no_db(std::nullopt, repo.dir, exec::current_environment(), runner,
                      history::SourceLines::Read);
    EXPECT_THROW(no_db.resolve("main"), UsageError);
}

TEST(RunResolver, OneRunPerBenchmarkResolvesToAllOfThem) {
    const auto repo = make_repo("cgbench-ref-many");
    const auto db = repo.dir / "h.db";
    {
        auto store = SqliteHistory::open_for_recording(db);
        auto first = at("first", repo.a, "2026-11-22T01:00:00Z");
        auto second = at("second", repo.a, "2026-11-22T02:00:00Z");
        second.benchmarks[0].name = "y";
        record_run(*store, first);
        record_run(*store, second);
    }
    exec::PosixProcessRunner runner;
    RunResolver resolver(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                         history::SourceLines::Read);
    const auto main = resolver.resolve("main");
    EXPECT_EQ(main.run.benchmarks.size(), 2u);
    EXPECT_EQ(main.label, "main (" + repo.a.substr(0, 10) + ", 2 runs)");
    EXPECT_EQ(resolver.latest().run.benchmarks.size(), 2u);
    EXPECT_EQ(resolver.resolve("second").run.benchmarks.size(), 1u) << "a run id is one run";
}

TEST(RunResolver, FunctionsReadLaterComeFromTheRunThatGaveEachResult) {
    const auto repo = make_repo("cgbench-ref-functions");
    const auto db = repo.dir / "h.db";
    {
        auto store = SqliteHistory::open_for_recording(db);
        auto older = at("older", repo.a, "2026-11-22T01:00:00Z");
        older.benchmarks.push_back(bench("y", 500));
        older.benchmarks[0].functions = stored_functions({"old_x"}, 900);
        older.benchmarks[1].functions = stored_functions({"y"}, 400);
        auto newer = at("newer", repo.a, "2026-11-22T02:00:00Z");
        newer.benchmarks[0].functions = stored_functions({"new_x", "helper"}, 800);
        record_run(*store, older);
        record_run(*store, newer);
    }
    exec::PosixProcessRunner runner;
    RunResolver with(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                     history::SourceLines::Skip);
    RunResolver without(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                        {history::SourceLines::Skip, history::KeptFunctions::Skip});
    const auto full = with.resolve("main");
    auto bare = without.resolve("main");
    ASSERT_EQ(bare.run.benchmarks.size(), 2u);
    ASSERT_EQ(bare.run_ids, (std::vector<std::string>{"newer", "older"}));
    for (const auto& b : bare.run.benchmarks)
        EXPECT_TRUE(b.functions.empty()) << b.name;
    std::vector<BenchmarkResult*> results;
    for (auto& b : bare.run.benchmarks)
        results.push_back(&b);
    without.read_functions(bare, results);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(bare.run.benchmarks[i].functions, full.run.benchmarks[i].functions) << i;
        EXPECT_FALSE(bare.run.benchmarks[i].functions.empty()) << i;
    }
    EXPECT_EQ(bare.run.benchmarks[0].functions[0].name, "new_x") << "x as the newer run gave it";
    // A resolver that read the functions reads nothing more; nor does a result file.
    auto again = with.resolve("main");
    again.run.benchmarks[0].functions.clear();
    with.read_functions(again, {&again.run.benchmarks[0]});
    EXPECT_TRUE(again.run.benchmarks[0].functions.empty());
}

TEST(RunResolver, ADirtyRunIsUsedWithAWarning) {
    const auto repo = make_repo("cgbench-ref-dirty");
    const auto db = repo.dir / "h.db";
    auto dirty = at("dirty", repo.a, "2026-11-22T01:00:00Z");
    dirty.git.dirty = true;
    { record_run(*SqliteHistory::open_for_recording(db), dirty); }
    exec::PosixProcessRunner runner;
    RunResolver resolver(history_source(db.string()), repo.dir, exec::current_environment(), runner,
                         history::SourceLines::Read);
    const auto r = resolver.resolve("main");
    EXPECT_EQ(r.run.id, "dirty");
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].find("uncommitted changes"), std::string::npos);
}

// The resolver reaches the history through the backend interface only: the same names
// resolve alike over a history in memory.
TEST(RunResolver, AHistoryInMemoryServesAlike) {
    const auto repo = make_repo("cgbench-ref-memory");
    MemoryHistory memory;
    record_run(memory, at("run-a", repo.a, "2026-11-22T01:00:00Z"));
    record_run(memory, at("run-b", repo.b, "2026-11-22T02:00:00Z"));
    exec::PosixProcessRunner runner;
    RunResolver resolver(history::HistorySource{"memory:", [&memory] { return memory.share(); }},
                         repo.dir, exec::current_environment(), runner, history::SourceLines::Read);
    EXPECT_EQ(resolver.resolve("run-a").run.id, "run-a");
    EXPECT_EQ(resolver.resolve("main").label, "main (" + repo.a.substr(0, 10) + ")");
    const auto head = resolver.latest();
    EXPECT_EQ(head.run.id, "run-b");
    EXPECT_EQ(resolver.at_merge_base(head, std::nullopt).run.id, "run-a");
    const auto previous = resolver.previous_on_branch(head);
    ASSERT_TRUE(previous.has_value());
    EXPECT_EQ(previous->run.id, "run-a");
    try {
        resolver.resolve("main", {"run-a"});
        FAIL() << "resolved a commit whose only run is excluded";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("no run recorded at commit"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("in memory:"), std::string::npos) << e.what();
    }
}

}  // namespace cgbench::access
