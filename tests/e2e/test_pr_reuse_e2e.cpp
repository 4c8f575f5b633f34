// The pull-request gate taking the base's run from the history instead of building it, end to
// end through scripts/cgbench-pr.sh: a real repository (tests/e2e/pr_repo.hpp), main's run
// recorded by `cgbench run` as main's CI records it, a build command that counts its
// invocations (one: HEAD only; two: the base was built as well), and the real Valgrind.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e/harness.hpp"
#include "e2e/pr_repo.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// ./build.sh, each invocation counted as a line of `counter`.
std::string counting_build(const fs::path& counter) {
    return "echo built >> '" + counter.string() + "' && ./build.sh";
}

std::size_t builds(const fs::path& counter) {
    std::ifstream in(counter);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

std::string first_line(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

// Main's tip built with `build` and measured by `cgbench run` into `db` (and `file`) as main's
// CI records it, with `extra` arguments (`dirty`: with an uncommitted comment in the suite
// file); then back on pr.
void record_main(PrRepo& repo, const fs::path& db, const std::string& build,
                 const std::vector<std::string>& extra = {}, const fs::path& file = {},
                 bool dirty = false) {
    repo.checkout("main");
    if (dirty) std::ofstream(repo.dir() / "cgbench.toml", std::ios::app) << "# uncommitted\n";
    ASSERT_EQ(run_tool({"/bin/sh", "-c", build}, repo.dir()).exit_code, 0);
    std::vector<std::string> argv = {CGBENCH_BINARY, "run", "-q", "--db", db.string()};
    if (!file.empty()) argv.insert(argv.end(), {"-o", file.string()});
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto r = run_tool(argv, repo.dir(), {}, kCiVariables);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (dirty) {
        ASSERT_TRUE(repo.git().run({"checkout", "-q", "--", "cgbench.toml"}));
    }
    repo.checkout("pr");
}

// benchmark name -> cost of a result file.
std::map<std::string, std::uint64_t> costs(const fs::path& result) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& b : read_json(result).at("benchmarks"))
        out[b.at("name").get<std::string>()] = b.at("cost").get<std::uint64_t>();
    return out;
}

// The PR job with `extra` arguments, the history in `db`, builds counted in `counter`.
Ran pr_job(const PrRepo& repo, const fs::path& dir, const fs::path& db, const fs::path& counter,
           const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--base",    "main",     "--build", counting_build(counter),
                                     "--history", db.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return cgbench_pr(repo, dir / "tmp", args);
}

}  // namespace

// Main measured its tip; the pull request's job finds that run and builds HEAD only. The
// reports say whose run the base is, and its costs are main's to the unit; --no-reuse (passed
// through the wrapper) builds the base again, which measures the same costs.
TEST(PrReuseE2E, MainsRunOfTheMergeBaseIsTheBaseAndTheBaseIsNeverBuilt) {
    const auto dir = scratch("pr-reuse");
    PrRepo repo(dir, Build::Cc);
    const auto db = dir / "history.db";
    const auto counter = dir / "builds";
    record_main(repo, db, "./build.sh", {}, dir / "main.json");

    auto r = pr_job(repo, dir, db, counter);
    ASSERT_EQ(r.exit_code, 1) << r.err;  // accumulate +10%: a regression against main's run
    EXPECT_EQ(builds(counter), 1u) << "the base was built: " << r.err;
    const auto out = repo.dir() / "cgbench-pr";
    const auto source = first_line(out / "base-source");
    EXPECT_EQ(
        source.rfind("base: main's run of " + repo.rev("main").substr(0, 10) + ", recorded 20", 0),
        0u)
        << source;
    EXPECT_NE(source.find("reused from the history"), std::string::npos) << source;
    EXPECT_EQ(read_json(out / "compare.json").at("notes").at(0), source);
    EXPECT_NE(r.out.find("note: " + source), std::string::npos) << r.out;
    const auto markdown = util::read_file(out / "report.md");
    EXPECT_NE(markdown.find("main's run of " + repo.rev("main").substr(0, 10)), std::string::npos)
        << markdown;
    const auto main_costs = costs(dir / "main.json");
    EXPECT_EQ(costs(out / "base.json"), main_costs);

    r = pr_job(repo, dir, db, counter, {"--no-reuse"});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(builds(counter), 3u) << "--no-reuse builds HEAD and the base: " << r.err;
    EXPECT_EQ(first_line(out / "base-source"),
              "base: built and measured here (no stored run reused: --no-reuse)");
    EXPECT_EQ(costs(out / "base.json"), main_costs);
}

// A run of the merge base measured otherwise (other weights: another fingerprint key), built
// by another compiler, or of a dirty work tree never stands for the base: it is built, and
// the reports say why.
TEST(PrReuseE2E, ARunMeasuredOtherwiseBuiltByAnotherCompilerOrDirtyIsNotTheBase) {
    if (run_tool({"/bin/sh", "-c", "command -v clang"}, fs::temp_directory_path()).exit_code != 0) {
        GTEST_SKIP() << "clang is not installed (scripts/install-deps.sh --tests installs it)";
    }
    struct Case {
        std::string name;
        std::string build;               // main's build
        std::vector<std::string> extra;  // main's `cgbench run` arguments
        bool dirty = false;              // main measured with an uncommitted change
        std::string why;
    };
    const std::vector<Case> cases = {
        {"weights", "./build.sh", {"--weights", "kcachegrind"}, false, "measured differently ("},
        {"compiler",
         "mkdir -p out && clang -O1 -g -o out/prog prog.c",
         {},
         false,
         "its programs were built by "},
        {"dirty", "./build.sh", {}, true, "the history holds no clean run of "},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const auto dir = scratch("pr-reuse-refused-" + c.name);
        PrRepo repo(dir, Build::Cc);
        const auto db = dir / "history.db";
        const auto counter = dir / "builds";
        record_main(repo, db, c.build, c.extra, {}, c.dirty);
        const auto r = pr_job(repo, dir, db, counter);
        ASSERT_EQ(r.exit_code, 1) << r.err;
        EXPECT_EQ(builds(counter), 2u) << "the base was not built: " << r.err;
        const auto source = first_line(repo.dir() / "cgbench-pr/base-source");
        EXPECT_EQ(source.rfind("base: built and measured here (no stored run reused: ", 0), 0u)
            << source;
        EXPECT_NE(source.find(c.why), std::string::npos) << source;
        if (c.name == "compiler") {
            EXPECT_NE(source.find("clang"), std::string::npos) << source;
        } else if (c.name == "weights") {
            EXPECT_NE(source.find("weights"), std::string::npos) << source;
        }
    }
}

// A benchmark the pull request adds is "added" against a reused base; a stored run that
// lacks a benchmark the base's suite file defines is not the whole base, and the base is built.
TEST(PrReuseE2E, ABenchmarkNewInHeadIsAddedButOneTheStoredRunLacksBuildsTheBase) {
    const auto dir = scratch("pr-reuse-coverage");
    PrRepo repo(dir, Build::Cc);
    const auto db = dir / "history.db";
    const auto counter = dir / "builds";
    record_main(repo, db, "./build.sh", {"--filter", "^work$"});
    auto r = pr_job(repo, dir, db, counter);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(builds(counter), 2u) << r.err;
    EXPECT_NE(first_line(repo.dir() / "cgbench-pr/base-source")
                  .find("it lacks 'idle', which the base's suite file defines"),
              std::string::npos);

    record_main(repo, db, "./build.sh");  // the whole suite, later: this one is reused
    std::ofstream(repo.dir() / "cgbench.toml", std::ios::app)
        << "\n[[bench]]\nname = \"more\"\ncommand = [\"out/prog\", \"1000\"]\n";
    repo.commit("a new benchmark");
    r = pr_job(repo, dir, db, counter);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(builds(counter), 3u) << "the base was built: " << r.err;
    const auto compare = read_json(repo.dir() / "cgbench-pr/compare.json");
    std::map<std::string, std::string> verdicts;
    for (const auto& b : compare.at("benchmarks"))
        verdicts[b.at("name").get<std::string>()] = b.at("verdict").get<std::string>();
    EXPECT_EQ(verdicts["more"], "added") << compare.dump();
    EXPECT_EQ(verdicts["work"], "regression") << compare.dump();
    EXPECT_EQ(verdicts["idle"], "unchanged") << compare.dump();
}

}  // namespace cgbench::e2e

namespace cgbench::e2e {

// A sharded pull-request job that removes one benchmark and adds another, both shards
// reusing main's run: each shard's base.json holds what a built base would have measured in
// that shard, so the joined report lists the removed benchmark, and compare.json's
// base_source names main's run.
TEST(PrReuseE2E, ShardsReusingTheBaseListABenchmarkThePullRequestRemoved) {
    const auto dir = scratch("pr-reuse-shards");
    PrRepo repo(dir, Build::Cc);
    const auto db = dir / "history.db";
    const auto counter = dir / "builds";
    record_main(repo, db, "./build.sh");
    repo.write("cgbench.toml",  // idle removed, aaa added: each shard of HEAD measures one
               "[defaults]\nthreshold = \"1%\"\n\n"
               "[[bench]]\nname = \"aaa\"\ncommand = [\"out/prog\", \"100\"]\n\n"
               "[[bench]]\nname = \"work\"\ncommand = [\"out/prog\", \"40000\"]\n");
    repo.commit("idle removed, aaa added");
    for (const std::string shard : {"1/2", "2/2"}) {
        const auto r = pr_job(repo, dir, db, counter, {"--shard", shard});
        EXPECT_LE(r.exit_code, 1) << shard << ": " << r.err;
    }
    EXPECT_EQ(builds(counter), 2u) << "each shard built HEAD only";
    const auto r = cgbench_pr(repo, dir / "tmp", {"--report-only"});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const auto compare = read_json(repo.dir() / "cgbench-pr/compare.json");
    std::map<std::string, std::string> verdicts;
    for (const auto& b : compare.at("benchmarks"))
        verdicts[b.at("name").get<std::string>()] = b.at("verdict").get<std::string>();
    EXPECT_EQ(verdicts, (std::map<std::string, std::string>{
                            {"aaa", "added"}, {"idle", "removed"}, {"work", "regression"}}))
        << compare.dump();
    const auto& source = compare.at("base_source");
    EXPECT_EQ(source.at("kind"), "history") << source.dump();
    ASSERT_EQ(source.at("runs").size(), 1u) << source.dump();
    EXPECT_EQ(source.at("runs").at(0),
              read_json(repo.dir() / "cgbench-pr/base-1.json").at("run").at("id"))
        << "main's run";
    EXPECT_EQ(source.at("lines").at(0), compare.at("notes").at(0));
}

}  // namespace cgbench::e2e
