// The pull-request gate end to end, through scripts/cgbench-pr.sh as CI calls it, on a real
// repository built with CMake (tests/e2e/pr_repo.hpp) and measured under the real Valgrind.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/harness.hpp"
#include "e2e/pr_repo.hpp"
#include "unit/flame_check.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

const nlohmann::json* benchmark_named(const nlohmann::json& compare, const std::string& name) {
    for (const auto& b : compare.at("benchmarks")) {
        if (b.at("name") == name) return &b;
    }
    return nullptr;
}

}  // namespace

// CMake compiles with absolute paths, so the base (built in a worktree under TMPDIR) and the
// head (built in the checkout) name prog.c differently in their debug info. "Functions that
// moved" pairs a function by file and name: each function must appear once, with a base and
// a head cost, named by the checkout's path.
TEST(PrE2E, CmakeAbsolutePathsStillPairTheFunctionsThatMoved) {
    const auto dir = scratch("pr-cmake");
    const PrRepo repo(dir);
    const auto r = cgbench_pr(repo, dir / "tmp", {"--base", "main", "--build", "./build.sh"});
    ASSERT_EQ(r.exit_code, 1) << r.err;  // accumulate +10%: a regression
    const auto compare = read_json(repo.dir() / "cgbench-pr/compare.json");
    const auto* work = benchmark_named(compare, "work");
    ASSERT_NE(work, nullptr);
    ASSERT_TRUE(work->contains("functions_moved")) << work->dump();
    const auto source = (repo.dir() / "prog.c").string();
    bool accumulate = false;
    for (const auto& f : work->at("functions_moved")) {
        const auto file = f.at("file").get<std::string>();
        EXPECT_EQ(file.find((dir / "tmp").string()), std::string::npos)
            << "a base function is named by the worktree's path: " << f.dump();
        if (f.at("name") == "(other)") continue;
        EXPECT_FALSE(f.at("base").is_null()) << "unpaired (head only): " << f.dump();
        EXPECT_FALSE(f.at("head").is_null()) << "unpaired (base only): " << f.dump();
        if (f.at("name") == "accumulate") {
            accumulate = true;
            EXPECT_EQ(file, source);
            EXPECT_GT(f.at("share").get<double>(), 0.9) << f.dump();
        }
    }
    EXPECT_TRUE(accumulate) << work->at("functions_moved").dump();
    // The regressed benchmark's differential flame graph (Callgrind on both sides), listed in
    // the Markdown report: accumulate() is a red frame.
    const auto svg = util::read_file(repo.dir() / "cgbench-pr/flame/work.svg");
    const auto accumulate_frame = testing_flame::drawn_frame(svg, "accumulate");
    EXPECT_GT(accumulate_frame.width, 0) << svg;
    EXPECT_EQ(accumulate_frame.red, 255) << accumulate_frame.fill;
    EXPECT_LT(accumulate_frame.green, 255) << accumulate_frame.fill;
    EXPECT_NE(util::read_file(repo.dir() / "cgbench-pr/report.md")
                  .find("[flame/work.svg](flame/work.svg)"),
              std::string::npos);
    EXPECT_NE(r.err.find("drawing the flame graph of work: Callgrind on both sides"),
              std::string::npos)
        << r.err;
}

// A base git does not know is refused before anything is built, saying how to fetch it.
TEST(PrE2E, ABaseTheCloneLacksIsNamedWithTheFetchToMake) {
    const auto dir = scratch("pr-no-base");
    const PrRepo repo(dir, Build::Cc);
    auto r = cgbench_pr(repo, dir / "tmp", {"--base", "nosuch", "--build", "./build.sh"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cgbench: error: the base 'nosuch' is not in this clone (fetch it (git "
                         "fetch origin BRANCH), or check --base"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("building"), std::string::npos) << r.err;
    r = cgbench_pr(repo, dir / "tmp", {"--base", "--build", "--build", "./build.sh"});
    EXPECT_EQ(r.exit_code, 2) << "an option's name is no ref: " << r.err;
}

// A shallow clone (a CI checkout's default) holds neither the base branch nor the merge base:
// the error says the clone is shallow and how to fetch the history.
TEST(PrE2E, AShallowCloneSaysHowToFetchTheHistory) {
    const auto dir = scratch("pr-shallow");
    const PrRepo repo(dir, Build::Cc);
    const auto url = "file://" + repo.dir().string();
    for (const auto& [how, why] :
         {std::pair{std::vector<std::string>{"--branch", "pr"},
                    "the base 'origin/main' is not in "
                    "this shallow clone"},
          std::pair{std::vector<std::string>{"--no-single-branch", "--branch", "pr"},
                    "no merge base of HEAD with 'origin/main': the clone is shallow"}}) {
        const auto clone = dir / ("clone" + std::to_string(how.size()));
        std::vector<std::string> argv = {"git", "clone", "-q", "--depth", "1"};
        argv.insert(argv.end(), how.begin(), how.end());
        argv.insert(argv.end(), {url, clone.string()});
        argv[0] = "/usr/bin/git";
        ASSERT_EQ(run_tool(argv, dir).exit_code, 0);
        const auto r =
            run_tool({CGBENCH_BINARY, "pr", "--base", "origin/main", "--build", "./build.sh"},
                     clone, {}, kCiVariables);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("fetch-depth: 0 with actions/checkout, GIT_DEPTH: 0 on GitLab, or git "
                             "fetch --unshallow"),
                  std::string::npos)
            << r.err;
    }
}

}  // namespace cgbench::e2e
