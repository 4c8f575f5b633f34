// Hardening, `cgbench bisect` (reliability audit 2, B02, B03, B04, B06): a build is bounded,
// one that moves the worktree is caught, and Ctrl-C or SIGTERM while a build or a benchmark
// runs ends bisect with the signal's exit code, its worktree and build removed.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <thread>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "e2e/measured_repo.hpp"

namespace cgbench::e2e {

namespace {

// A repository whose first commit builds and measures; the second (BAD) has `build` as its
// build.sh and, when given, `program` as its work.c.
struct TwoCommits {
    explicit TwoCommits(const fs::path& dir, const std::string& build,
                        const std::string& program = "")
        : repo(made(dir / "repo")) {
        repo.program(1000);
        good = repo.commit("good");
        repo.write("build.sh", build);
        if (!program.empty()) repo.write("work.c", program);
        bad = repo.commit("bad");
    }
    std::vector<std::string> bisect(std::vector<std::string> extra = {}) const {
        std::vector<std::string> args = {"bisect", good, bad, "--build", "./build.sh", "--no-db"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
    // The worktrees git knows of the repository (1: only the checkout itself).
    std::size_t worktrees() const {
        const auto list = repo.git().run({"worktree", "list", "--porcelain"}).value_or("");
        std::size_t n = 0;
        for (std::size_t at = list.find("worktree "); at != std::string::npos;
             at = list.find("\nworktree ", at + 1)) {
            ++n;
        }
        return n;
    }
    static fs::path made(const fs::path& dir) {
        fs::create_directories(dir);
        return dir;
    }
    MeasuredRepo repo;
    std::string good;
    std::string bad;
};

// Waits up to `limit` for `ready`.
bool wait_for(const std::function<bool()>& ready, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

// A build.sh that hangs in a shell whose command line names `marker` (to find it).
std::string hanging_build(const fs::path& marker) {
    return fmt::format("#!/bin/sh\nsh -c 'sleep 300' {}\ncc -O1 -g -o work work.c\n",
                       marker.string());
}

}  // namespace

TEST(Hardening, B02_AHangingBuildIsStoppedAtTheBuildTimeout) {
    const auto dir = scratch("hardening-b02");
    const auto marker = dir / "b02-hang";
    TwoCommits t(dir, hanging_build(marker));
    const auto r = cgbench(t.bisect({"--build-timeout", "2"}), {.cwd = t.repo.dir().string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("timed out after 2 s (--build-timeout)"), std::string::npos) << r.err;
    EXPECT_TRUE(processes_mentioning(marker.string()).empty()) << "the build outlived bisect";
    EXPECT_EQ(t.worktrees(), 1u);
    const auto bad = cgbench({"bisect", t.good, t.bad, "--build", "true", "--build-timeout", "0"},
                             {.cwd = t.repo.dir().string()});
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_NE(bad.err.find("invalid --build-timeout '0'"), std::string::npos) << bad.err;
}

TEST(Hardening, B03_CtrlCDuringABuildExits130AndRemovesTheWorktree) {
    const auto dir = scratch("hardening-b03");
    const auto marker = dir / "b03-hang";
    TwoCommits t(dir, hanging_build(marker));
    const auto r = run_cgbench(
        t.bisect(), {.cwd = t.repo.dir().string(), .started = [&](pid_t pid) {
                         // Once the build runs in the worktree.
                         wait_for([&] { return !processes_mentioning(marker.string()).empty(); },
                                  std::chrono::seconds(120));
                         ::kill(pid, SIGINT);
                     }});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("interrupted by signal 2"), std::string::npos) << r.err;
    EXPECT_EQ(t.worktrees(), 1u) << "the worktree is still registered";
    EXPECT_TRUE(processes_mentioning(marker.string()).empty()) << "the build outlived bisect";
}

TEST(Hardening, B04_SigtermDuringABenchmarkExits143AndRemovesTheWorktree) {
    const auto dir = scratch("hardening-b04");
    const auto started = dir / "b04-started";
    const std::string sleeper = fmt::format(
        "#include <stdio.h>\n#include <unistd.h>\nint main(void) {{\n"
        "    FILE* f = fopen(\"{}\", \"w\");\n    if (f) fclose(f);\n    sleep(60);\n"
        "    return 0;\n}}\n",
        started.string());
    TwoCommits t(dir, "#!/bin/sh\nset -e\ncc -O1 -g -o work work.c\n", sleeper);
    const auto r = run_cgbench(
        t.bisect(), {.cwd = t.repo.dir().string(), .started = [&](pid_t pid) {
                         // BAD's program is measured (its warm-up).
                         wait_for([&] { return fs::exists(started); }, std::chrono::seconds(120));
                         ::kill(pid, SIGTERM);
                     }});
    EXPECT_EQ(r.exit_code, 143) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
    EXPECT_EQ(t.worktrees(), 1u) << "the worktree is still registered";
    EXPECT_LT(r.seconds, 50) << "the benchmark ran to its end";
}

TEST(Hardening, B06_ABuildThatMovesTheWorktreeIsNotMeasured) {
    const auto dir = scratch("hardening-b06");
    TwoCommits t(dir, "#!/bin/sh\nset -e\ngit checkout -q HEAD~1\ncc -O1 -g -o work work.c\n");
    const auto r = cgbench(t.bisect(), {.cwd = t.repo.dir().string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find(fmt::format("the build moved the worktree from {} to {}",
                                     t.bad.substr(0, 12), t.good.substr(0, 12))),
              std::string::npos)
        << r.err;
    EXPECT_EQ(t.worktrees(), 1u);
}

}  // namespace cgbench::e2e
