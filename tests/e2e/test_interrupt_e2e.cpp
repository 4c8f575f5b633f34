// Ctrl-C during a parallel suite: every running benchmark's process group is stopped, cgbench
// exits 130, and nothing partial is written.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "base/errors.hpp"
#include "e2e/harness.hpp"
#include "util/fs.hpp"

extern char** environ;

namespace cgbench::e2e {

namespace {

// Waits for `pid` to exit (up to `limit`); its exit status, or -1 on timeout.
int wait_for_exit(pid_t pid, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
}

}  // namespace

TEST(InterruptE2E, CtrlCStopsAllBenchmarksAndWritesNothing) {
    const auto dir = scratch("interrupt");
    std::string suite;
    for (int i = 1; i <= 3; ++i) {
        suite +=
            fmt::format("[[bench]]\nname = \"sleep{}\"\ncommand = [\"{}\", \"{}\", \"60\"]\n\n", i,
                        program("spawn_and_sleep"), (dir / fmt::format("pid{}", i)).string());
    }
    write_suite(dir, suite);
    const auto out = dir / "result.json";
    const std::string suite_path = (dir / "cgbench.toml").string();
    const std::string out_path = out.string();
    std::vector<const char*> argv = {
        CGBENCH_BINARY,   "run",  "-q", "-j2", "--suite", suite_path.c_str(), "--out",
        out_path.c_str(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, CGBENCH_BINARY, nullptr, nullptr,
                            const_cast<char* const*>(argv.data()), environ),
              0);
    // Both workers are busy once both programs have written their child's pid.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!(fs::exists(dir / "pid1") && fs::exists(dir / "pid2")) &&
           std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(fs::exists(dir / "pid1") && fs::exists(dir / "pid2")) << "benchmarks never started";
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    const int status = wait_for_exit(pid, std::chrono::seconds(30));
    if (status == -1) ::kill(pid, SIGKILL);
    EXPECT_EQ(status, 130);
    EXPECT_FALSE(fs::exists(out)) << "a result file was written";
    EXPECT_FALSE(fs::exists(dir / "pid3")) << "a benchmark started after Ctrl-C";
    for (const auto& entry : fs::directory_iterator(dir)) {
        EXPECT_EQ(entry.path().filename().string().find(".result.json.tmp"), std::string::npos);
    }
    // Nothing of the run is left: not the programs, not their children, not Valgrind.
    EXPECT_EQ(processes_mentioning(dir.string()), std::vector<int>{});
}

}  // namespace cgbench::e2e
