// Faults found by the hardening audit, each checked where it bit: programs that exec (D6),
// cgbench killed with SIGKILL (D8), descendants that leave the process group (D9), Valgrind
// configured behind cgbench's back (D10), loader variables set with --env (D16).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "e2e/harness.hpp"
#include "util/fs.hpp"

extern char** environ;

namespace cgbench::e2e {

namespace {

using namespace std::chrono_literals;

fs::path executable(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    return path;
}

int read_pid(const fs::path& file) {
    std::ifstream in(file);
    int pid = 0;
    in >> pid;
    return pid;
}

// Polls `done` for up to `limit`.
template <class Done>
bool eventually(Done done, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(50ms);
    }
    return done();
}

}  // namespace

TEST(Hardening, D6_ProgramsThatExecAreMeasured) {
    const auto dir = scratch("d6");
    const auto shebang =
        executable(dir / "env-shebang.py", "#!/usr/bin/env python3\nprint(sum(range(1000)))\n");
    const auto wrapper =
        executable(dir / "wrapper.sh", "#!/bin/sh\nexec " + program("workload") + " 5000\n");
    for (const auto& p : {shebang, wrapper}) {
        const auto r = cgbench({"run", "--no-db", "-q", "--format", "json", "--", p.string()},
                               {.env = {{"PATH", "/usr/bin:/bin"}}});
        ASSERT_EQ(r.exit_code, 0) << p << ": " << r.err;
        const auto doc = nlohmann::json::parse(r.out);
        EXPECT_GT(doc["benchmarks"][0]["events"]["Ir"].get<std::uint64_t>(), 100000u) << p;
    }
    if (::geteuid() == 0) {  // an exec Valgrind cannot follow: a setuid program
        const auto setuid = dir / "setuid-workload";
        fs::copy_file(program("workload"), setuid);
        ASSERT_EQ(::chown(setuid.c_str(), 65534, 65534), 0);
        ASSERT_EQ(::chmod(setuid.c_str(), 04755), 0);
        const auto script =
            executable(dir / "run-setuid.sh", "#!/bin/sh\nexec " + setuid.string() + " 10\n");
        const auto r = cgbench({"run", "--no-db", "--", script.string()});
        EXPECT_EQ(r.exit_code, 3) << r.err;
        EXPECT_NE(r.err.find("Can't execute setuid"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("L3 cache"), std::string::npos) << "start-up noise is no cause";
    }
}

TEST(Hardening, D8_KillingCgbenchLeavesNothingRunningAndTheNextRunCleansUp) {
    const auto dir = scratch("d8");
    const std::string log = (dir / "cgbench.log").string();
    const std::string pidfile = (dir / "child.pid").string();
    const std::vector<std::string> args = {CGBENCH_BINARY, "run",
                                           "-vv",          "--no-db",
                                           "--warmup",     "0",
                                           "--timeout",    "60",
                                           "--",           program("spawn_and_sleep"),
                                           pidfile,        "300"};
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, CGBENCH_BINARY, &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    ASSERT_TRUE(eventually([&] { return fs::exists(pidfile) && read_pid(pidfile) > 0; }, 60s));
    // The pid is the child's own, in the sandbox's pid namespace: it is found by its argument.
    ASSERT_FALSE(processes_mentioning(pidfile).empty());
    ASSERT_EQ(::kill(pid, SIGKILL), 0);  // what a CI runner does to a job over its time
    ::waitpid(pid, nullptr, 0);
    EXPECT_TRUE(eventually([&] { return processes_mentioning(pidfile).empty(); }, 10s))
        << "Valgrind or the program survived";
    // What the killed run left in the staging area goes with the next run.
    std::smatch m;
    const std::string text = util::read_file(log);
    ASSERT_TRUE(std::regex_search(text, m, std::regex("--log-file=(\\S+)/valgrind\\.log\\.%p")))
        << text;
    const fs::path staging = m[1].str();
    EXPECT_TRUE(fs::exists(staging));
    const auto next = cgbench({"run", "--no-db", "-q", "--", program("workload"), "10"});
    EXPECT_EQ(next.exit_code, 0) << next.err;
    EXPECT_FALSE(fs::exists(staging)) << staging << " was left behind";
}

TEST(Hardening, D9_SetsidGrandchildIsKilledAndReported) {
    const auto dir = scratch("d9");
    const auto pidfile = dir / "grandchild.pid";
    const auto r =
        cgbench({"run", "--no-db", "--", program("grandchild"), pidfile.string(), "300"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("outlived the program and were killed"), std::string::npos) << r.out;
    const int grandchild = read_pid(pidfile);
    ASSERT_GT(grandchild, 0);
    // Its pid is in the sandbox's pid namespace: look for it by its argument.
    EXPECT_TRUE(processes_mentioning(pidfile.string()).empty())
        << "the setsid() grandchild outlived the measurement";
}

TEST(Hardening, D10_ValgrindConfigurationOfTheCallerIsIgnored) {
    const auto dir = scratch("d10");
    const auto script = executable(dir / "two.sh", "#!/bin/sh\n" + program("workload") + " 2000\n" +
                                                       program("workload") + " 3000\n");
    fs::create_directories(dir / "home");
    const std::vector<std::string> args = {"--no-db", "--env", "HOME=" + (dir / "home").string(),
                                           "--", script.string()};
    const auto base = measure_events(args, {.cwd = dir.string()});
    ASSERT_FALSE(base.empty());
    // Options that would change what is counted, wherever Valgrind looks for them: the
    // program's working directory, its HOME, the caller's VALGRIND_OPTS.
    std::ofstream(dir / ".valgrindrc") << "--trace-children-skip=*workload*\n";
    std::ofstream(dir / "home" / ".valgrindrc") << "--trace-children=yes\n";
    EXPECT_EQ(measure_events(args, {.env = {{"VALGRIND_OPTS", "--trace-children-skip=*workload*"}},
                                    .cwd = dir.string()}),
              base);
    for (const auto* name : {"VALGRIND_OPTS", "VALGRIND_LIB"}) {
        const auto r = cgbench(
            {"run", "--no-db", "--env", std::string(name) + "=x", "--", program("workload"), "10"});
        EXPECT_EQ(r.exit_code, 2) << name;
        EXPECT_NE(r.err.find("--env cannot set " + std::string(name)), std::string::npos) << r.err;
    }
}

TEST(Hardening, D16_LoaderVariablesAreRecordedInTheFingerprint) {
    const auto dir = scratch("d16");
    const auto plain = dir / "plain.json";
    const auto tuned = dir / "tuned.json";
    ASSERT_EQ(cgbench({"run", "-q", "--no-db", "--out", plain.string(), "--", program("workload"),
                       "1000"})
                  .exit_code,
              0);
    const auto r =
        cgbench({"run", "--no-db", "--out", tuned.string(), "--env",
                 "GLIBC_TUNABLES=glibc.malloc.tcache_count=0", "--", program("workload"), "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("GLIBC_TUNABLES=glibc.malloc.tcache_count=0"), std::string::npos)
        << "the run warns";
    const auto a = read_json(plain)["run"]["fingerprint"];
    const auto b = read_json(tuned)["run"]["fingerprint"];
    EXPECT_FALSE(a.contains("loader_env"));
    EXPECT_EQ(b["loader_env"],
              nlohmann::json::array({"GLIBC_TUNABLES=glibc.malloc.tcache_count=0"}));
    EXPECT_NE(a["key"], b["key"]);
    const auto c = cgbench({"compare", "--no-db", plain.string(), tuned.string()});
    EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
    EXPECT_NE(c.err.find("loader environment"), std::string::npos) << c.err;
}

}  // namespace cgbench::e2e
