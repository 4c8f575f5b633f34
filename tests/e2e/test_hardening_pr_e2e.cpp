// Hardening, the pull-request gate (reliability audit 2: J05, Q05): `--command` is split into
// words and never run by a shell; a SIGTERM while the base builds stops the build and removes
// the worktree.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "e2e/pr_repo.hpp"

namespace cgbench::e2e {

namespace {

const std::vector<std::string> kCi = {"GITHUB_ACTIONS",       "GITHUB_BASE_REF", "GITLAB_CI",
                                      "CI_MERGE_REQUEST_IID", "CI_NODE_INDEX",   "CGBENCH_DB"};

}  // namespace

TEST(Hardening, J05_CommandIsSplitIntoWordsNeverRunByAShell) {
    const auto dir = scratch("hardening-j05");
    const PrRepo repo(dir, Build::Cc);
    const auto wrapper = (fs::path(CGBENCH_SOURCE_DIR) / "scripts/cgbench-pr.sh").string();
    const std::map<std::string, std::string> env = {{"CGBENCH", CGBENCH_BINARY}};
    for (const auto& [command, why] :
         {std::pair{"./out/prog $(touch " + (dir / "PWN_CMD").string() + ")",
                    "a shell would interpret '$' here"},
          std::pair{"./out/prog `touch " + (dir / "PWN_BT").string() + "`",
                    "a shell would interpret '`' here"},
          std::pair{std::string("./out/prog \"$(id)\""), "a shell would expand '$' inside \"...\""},
          std::pair{std::string("./out/prog \"unterminated"), "a \" quote is not closed"},
          std::pair{std::string("./out/prog 1 ; rm -rf x"), "a shell would interpret ';' here"}}) {
        for (const bool via_wrapper : {false, true}) {
            std::vector<std::string> argv = {CGBENCH_BINARY, "pr"};
            if (via_wrapper) argv = {"/bin/bash", wrapper};
            for (const auto& a : {"--base", "main", "--build", "./build.sh", "--command"})
                argv.emplace_back(a);
            argv.push_back(command);
            const auto r = run_tool(argv, repo.dir(), env, kCi);
            EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
            EXPECT_NE(r.err.find(why), std::string::npos) << command << ": " << r.err;
            EXPECT_NE(r.err.find("cgbench runs no shell"), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find("building"), std::string::npos) << "refused before building";
        }
    }
    EXPECT_FALSE(fs::exists(dir / "PWN_CMD"));
    EXPECT_FALSE(fs::exists(dir / "PWN_BT"));
    // Quotes group words as a shell's would: one argument "40000", the benchmark named.
    const auto r = run_tool({CGBENCH_BINARY, "pr", "--base", "main", "--build", "./build.sh",
                             "--command", "./out/prog '40000'", "--name", "w j05"},
                            repo.dir(), {}, kCi);
    EXPECT_EQ(r.exit_code, 1) << r.err;  // the pr branch's accumulate does 10% more
    const auto compare = read_json(repo.dir() / "cgbench-pr/compare.json");
    EXPECT_EQ(compare.at("benchmarks")[0].at("name"), "w j05");
    EXPECT_EQ(compare.at("benchmarks")[0].at("verdict"), "regression");
}

// SIGTERM while the base's build runs: the build (its whole process tree) is stopped, the
// worktree is gone, cgbench exits 143.
TEST(Hardening, Q05_SigtermDuringTheBaseBuildStopsItAndRemovesTheWorktree) {
    const auto dir = scratch("hardening-q05");
    const PrRepo repo(dir, Build::Cc);
    const std::string nap = "sleep 117.0" + std::to_string(::getpid());  // unique to this test
    const auto started = dir / "build-started";
    Spawn spawn;
    spawn.cwd = repo.dir().string();
    spawn.env = {"GITHUB_BASE_REF=", "CI_MERGE_REQUEST_IID=", "CGBENCH_DB="};
    spawn.started = [&](pid_t pid) {
        for (int i = 0; i < 1200 && !fs::exists(started); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ::kill(pid, SIGTERM);
    };
    // HEAD is built and measured first (in the checkout); the base's build (in the worktree)
    // is the one interrupted.
    const auto build = "case \"$(git rev-parse --git-dir)\" in */worktrees/*) touch " +
                       started.string() + "; " + nap + ";; *) ./build.sh;; esac";
    const auto r = run_cgbench({"pr", "--base", "main", "--build", build}, spawn);
    ASSERT_TRUE(fs::exists(started)) << r.err;
    EXPECT_EQ(r.exit_code, 143) << r.err;
    EXPECT_LT(r.seconds, 60) << "the build was waited for";
    for (int i = 0; i < 40 && !processes_mentioning(nap.substr(6)).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(processes_mentioning(nap.substr(6)).empty()) << "the build outlived cgbench";
    // Only the checkout remains once git forgets worktrees whose directory is gone.
    ASSERT_TRUE(repo.git().run({"worktree", "prune"}));
    const auto list = repo.git().run({"worktree", "list", "--porcelain"}).value_or("");
    EXPECT_EQ(std::count(list.begin(), list.end(), '\n'), 2)
        << list;  // "worktree", "HEAD", "branch"
}

}  // namespace cgbench::e2e
