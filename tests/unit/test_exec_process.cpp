// The process runner on real processes.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "base/errors.hpp"
#include "exec/process.hpp"

namespace cgbench::exec {

namespace {

const std::string kPrograms = CGBENCH_TEST_PROGRAMS;

ProcessSpec spec(std::vector<std::string> argv) {
    ProcessSpec s;
    s.argv = std::move(argv);
    s.env = {"PATH=/usr/bin:/bin"};
    return s;
}

bool process_alive(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string content;
    std::getline(stat, content);
    if (content.empty()) return false;
    const auto close = content.rfind(')');
    return close != std::string::npos && content.size() > close + 2 && content[close + 2] != 'Z';
}

pid_t read_pid(const std::string& path) {
    std::ifstream in(path);
    int pid = 0;
    in >> pid;
    return pid;
}

}  // namespace

TEST(Process, ExitCodeAndOutputTails) {
    PosixProcessRunner runner;
    const auto out = runner.run(spec({kPrograms + "/exit_with", "7", "the final message"}));
    EXPECT_EQ(out.how, Termination::Exited);
    EXPECT_EQ(out.exit_code, 7);
    EXPECT_NE(out.stderr_tail.find("the final message"), std::string::npos);
    EXPECT_GT(out.wall_seconds, 0.0);
}

TEST(Process, TailKeepsTheEnd) {
    PosixProcessRunner runner;
    auto s = spec({kPrograms + "/exit_with", "0", "LAST"});
    s.tail_bytes = 32;
    const auto out = runner.run(s);
    EXPECT_LE(out.stderr_tail.size(), 32u);
    EXPECT_NE(out.stderr_tail.find("LAST"), std::string::npos);
}

TEST(Process, Signal) {
    PosixProcessRunner runner;
    const auto out = runner.run(spec({kPrograms + "/crash", std::to_string(SIGABRT)}));
    EXPECT_EQ(out.how, Termination::Signaled);
    EXPECT_EQ(out.signal, SIGABRT);
    EXPECT_TRUE(out.started);
    EXPECT_EQ(describe_signal(SIGSEGV), "Segmentation fault (SIGSEGV)");
}

TEST(Process, SpawnFailuresAreReportedNotThrown) {
    PosixProcessRunner runner;
    auto out = runner.run(spec({"/nonexistent/program"}));
    EXPECT_EQ(out.how, Termination::SpawnFailed);
    EXPECT_EQ(out.spawn_step, "exec");
    EXPECT_EQ(out.spawn_errno, ENOENT);
    EXPECT_FALSE(out.started);
    auto s = spec({kPrograms + "/exit_with", "0"});
    s.cwd = "/nonexistent/dir";
    out = runner.run(s);
    EXPECT_EQ(out.spawn_step, "chdir");
}

TEST(Process, TimeoutKillsTheWholeProcessGroup) {
    PosixProcessRunner runner;
    const std::string pidfile = ::testing::TempDir() + "/cgbench-timeout.pid";
    auto s = spec({kPrograms + "/spawn_and_sleep", pidfile, "30"});
    s.timeout_seconds = 0.5;
    const auto start = std::chrono::steady_clock::now();
    const auto out = runner.run(s);
    EXPECT_EQ(out.how, Termination::TimedOut);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    const pid_t child = read_pid(pidfile);
    ASSERT_GT(child, 0);
    EXPECT_FALSE(process_alive(child)) << "grandchild " << child << " survived the timeout";
}

TEST(Process, LeftoverProcessesAreKilledAndReported) {
    PosixProcessRunner runner;
    const std::string pidfile = ::testing::TempDir() + "/cgbench-leftover.pid";
    const auto out = runner.run(spec({kPrograms + "/spawn_and_sleep", pidfile, "30", "exit"}));
    EXPECT_EQ(out.how, Termination::Exited);
    EXPECT_TRUE(out.killed_leftovers);
    const pid_t child = read_pid(pidfile);
    ASSERT_GT(child, 0);
    EXPECT_FALSE(process_alive(child));
}

TEST(Process, StdinIsDevNullOrTheGivenFile) {
    PosixProcessRunner runner;
    const auto empty = runner.run(spec({kPrograms + "/workload", "10", "stdin"}));
    const std::string input = ::testing::TempDir() + "/cgbench-stdin.txt";
    std::ofstream(input) << "some input";
    auto s = spec({kPrograms + "/workload", "10", "stdin"});
    s.stdin_path = input;
    const auto fed = runner.run(s);
    EXPECT_EQ(empty.exit_code, 0);
    EXPECT_NE(empty.stdout_tail, fed.stdout_tail);
    s.stdin_path = "/nonexistent/input";
    EXPECT_THROW(runner.run(s), UsageError);
}

// A FIFO as stdin: the program gets what its writer (started later) writes; without a
// writer the wait ends at the timeout, before anything started.
TEST(Process, StdinFifoWaitsForItsWriterWithinTheTimeout) {
    PosixProcessRunner runner;
    const std::string fifo = ::testing::TempDir() + "/cgbench-stdin-" + std::to_string(::getpid());
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto s = spec({"/bin/cat"});
    s.stdin_path = fifo;
    s.timeout_seconds = 10;
    std::thread writer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        std::ofstream(fifo) << "through the fifo";
    });
    const auto fed = runner.run(s);
    writer.join();
    EXPECT_EQ(fed.how, Termination::Exited);
    EXPECT_EQ(fed.stdout_tail, "through the fifo");
    s.timeout_seconds = 0.3;
    const auto start = std::chrono::steady_clock::now();
    const auto unwritten = runner.run(s);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(unwritten.how, Termination::TimedOut);
    EXPECT_TRUE(unwritten.stdin_unwritten);
    EXPECT_FALSE(unwritten.started);
    ::unlink(fifo.c_str());
}

TEST(Process, AslrIsDisabledInTheChild) {
    PosixProcessRunner runner;
    // /proc/self/personality of the child shows ADDR_NO_RANDOMIZE (0x0040000) unless the
    // system refused it, in which case the runner reports the errno.
    auto s = spec({"/bin/cat", "/proc/self/personality"});
    const auto out = runner.run(s);
    ASSERT_EQ(out.exit_code, 0);
    const unsigned long persona = std::stoul(out.stdout_tail, nullptr, 16);
    if (out.aslr_errno == 0) {
        EXPECT_TRUE(persona & ADDR_NO_RANDOMIZE);
    } else {
        EXPECT_FALSE(persona & ADDR_NO_RANDOMIZE);
    }
    s.disable_aslr = false;
    const auto plain = runner.run(s);
    EXPECT_FALSE(std::stoul(plain.stdout_tail, nullptr, 16) & ADDR_NO_RANDOMIZE);
}

TEST(Process, EnvironmentIsExactlyWhatWasGiven) {
    PosixProcessRunner runner;
    ProcessSpec s;
    s.argv = {"/usr/bin/env"};
    s.env = {"ONLY=this"};
    const auto out = runner.run(s);
    EXPECT_EQ(out.stdout_tail, "ONLY=this\n");
}

TEST(Process, ProgramInheritsNoDescriptorBeyondStderr) {
    // A file another thread of cgbench might have open without O_CLOEXEC at fork time.
    const int leaked = ::open("/dev/null", O_RDONLY);
    ASSERT_GE(leaked, 3);
    PosixProcessRunner runner;
    const auto path = "/proc/self/fd/" + std::to_string(leaked);
    EXPECT_EQ(runner.run(spec({"/usr/bin/test", "-e", path})).exit_code, 1) << path;
    EXPECT_EQ(runner.run(spec({"/usr/bin/test", "-e", "/proc/self/fd/2"})).exit_code, 0);
    ::close(leaked);
}

TEST(Process, RunsFromSeveralThreadsAtOnce) {
    // Each run's output, exit status and process group stay its own.
    PosixProcessRunner runner;
    std::vector<std::thread> threads;
    std::vector<ProcessOutcome> outcomes(6);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        threads.emplace_back([&, i] {
            outcomes[i] = runner.run(
                spec({kPrograms + "/exit_with", std::to_string(i), "thread " + std::to_string(i)}));
        });
    }
    for (auto& t : threads)
        t.join();
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        EXPECT_EQ(outcomes[i].exit_code, static_cast<int>(i));
        EXPECT_NE(outcomes[i].stderr_tail.find("thread " + std::to_string(i) + "\n"),
                  std::string::npos);
        EXPECT_EQ(outcomes[i].stderr_tail.find("thread " + std::to_string((i + 1) % 6) + "\n"),
                  std::string::npos);
        EXPECT_FALSE(outcomes[i].killed_leftovers);
    }
}

}  // namespace cgbench::exec
