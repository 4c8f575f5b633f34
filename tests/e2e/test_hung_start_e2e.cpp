// A run whose start never completes is still bounded by --timeout and Ctrl-C: an exec that
// never returns, and a keeper stuck in the sandbox's setup. tests/programs/hold_syscall holds
// the call in the kernel (a seccomp supervisor that never answers, as a container runtime's
// can hang; a program on a hung network file system blocks the same way) until the process
// is killed.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "base/errors.hpp"
#include "e2e/sandbox_support.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using namespace std::chrono_literals;

// Whether a process whose command line mentions `text`, other than `cgbench` (the process the
// test started), is blocked in system call `nr`. The started process is excluded: on its way
// to becoming cgbench it execs too, while the supervisor reads the file name, and a SIGINT
// sent then (before cgbench's handler exists) kills it.
bool blocked_in(const std::string& text, long nr, pid_t cgbench) {
    for (const int pid : processes_mentioning(text)) {
        if (pid == cgbench) continue;
        std::string call;
        try {
            call = util::read_file(fmt::format("/proc/{}/syscall", pid));
        } catch (const Error&) {
            continue;
        }
        if (call.rfind(std::to_string(nr) + " ", 0) == 0) return true;
    }
    return false;
}

struct Case {
    std::vector<std::string> hold;  // hold_syscall's options
    long nr;                        // the system call it holds
    bool namespaces;
    bool interrupt;  // Ctrl-C once the call is held, else --timeout 1
};

// Runs a program (a copy in `dir`, so that every process of the run mentions `dir`) through
// hold_syscall and checks how the run ends: exit 3 at the timeout, 130 on SIGINT, within a
// few seconds, and nothing left running.
std::string run_held(const fs::path& dir, const Case& c) {
    const fs::path held = dir / "held-program";
    fs::copy_file(program("exit_with"), held, fs::copy_options::overwrite_existing);
    std::vector<std::string> through = {program("hold_syscall")};
    through.insert(through.end(), c.hold.begin(), c.hold.end());
    if (!c.namespaces) through.insert(through.begin(), program("no_namespaces"));
    std::vector<std::string> args = {"run", "--no-db", "-q"};
    if (!c.interrupt) args.insert(args.end(), {"--timeout", "1"});
    args.insert(args.end(), {"--", held.string(), "0"});
    const std::string what = fmt::format("{} {}, {}: ", c.hold.back(),
                                         c.namespaces ? "in namespaces" : "without namespaces",
                                         c.interrupt ? "SIGINT" : "--timeout 1");
    bool was_held = false;
    std::chrono::steady_clock::time_point signalled;
    std::thread interrupter;
    const auto r = run_cgbench(args, {.started =
                                          [&](pid_t pid) {
                                              interrupter = std::thread([&, pid] {
                                                  for (int i = 0; i < 300 && !was_held; ++i) {
                                                      was_held =
                                                          blocked_in(held.string(), c.nr, pid);
                                                      if (!was_held)
                                                          std::this_thread::sleep_for(20ms);
                                                  }
                                                  signalled = std::chrono::steady_clock::now();
                                                  if (c.interrupt) ::kill(pid, SIGINT);
                                              });
                                          },
                                      .through = through});
    interrupter.join();
    const double after =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
    Checks checks;
    checks.expect(was_held, what + "the call was never held: " + r.err);
    if (c.interrupt) {
        checks.expect(r.exit_code == 130, what + fmt::format("exit {}: {}", r.exit_code, r.err));
        checks.expect(after < 8, what + fmt::format("ended {:.1f} s after SIGINT", after));
    } else {
        checks.expect(r.exit_code == 3, what + fmt::format("exit {}: {}", r.exit_code, r.err));
        checks.expect(r.err.find("timed out after 1 s") != std::string::npos &&
                          r.err.find("never returned") != std::string::npos,
                      what + r.err);
        checks.expect(r.seconds < 9, what + fmt::format("took {:.1f} s", r.seconds));
    }
    const auto left = processes_mentioning(dir.string());
    checks.expect(left.empty(), what + fmt::format("{} processes left", left.size()));
    for (const int pid : left)
        ::kill(pid, SIGKILL);
    return checks.failures();
}

}  // namespace

TEST(HungStart, AnExecThatNeverReturnsEndsAtTheTimeoutAndOnCtrlC) {
    // The supervisor reads the held process's file name from its memory (ptrace access).
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to read another process's memory";
    const auto dir = scratch("hung-exec");
    for (const bool ns : {true, false}) {
        for (const bool interrupt : {false, true}) {
            EXPECT_EQ(run_held(dir, {{"--exec", "/held-program"}, SYS_execve, ns, interrupt}), "");
        }
    }
}

// The first sethostname is the probe's (cgbench sets a sandbox up once, to learn whether the
// kernel allows it); the second is the warm-up run's keeper's.
TEST(HungStart, AKeeperStuckInTheSandboxSetupEndsAtTheTimeoutAndOnCtrlC) {
    const auto dir = scratch("hung-keeper");
    const auto probe = measure({"--warmup", "0", "--", program("exit_with"), "0"});
    if (probe.isolation.rfind("namespaces", 0) != 0) {
        GTEST_SKIP() << "the kernel refuses namespaces here (" << probe.isolation
                     << "): there is no sandbox setup to hold";
    }
    for (const bool interrupt : {false, true}) {
        EXPECT_EQ(
            run_held(dir, {{"--from", "2", "--sethostname"}, SYS_sethostname, true, interrupt}),
            "");
    }
    // The probe itself held: Ctrl-C ends it; after 5 s the run goes on without namespaces,
    // saying why.
    EXPECT_EQ(run_held(dir, {{"--sethostname"}, SYS_sethostname, true, true}), "");
    const auto r = measure({"--warmup", "0", "--", program("exit_with"), "0"},
                           {.through = {program("hold_syscall"), "--sethostname"}});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(mentions(r.warnings, "setting them up did not finish within 5 s"))
        << nlohmann::json(r.warnings).dump();
    EXPECT_EQ(r.isolation.rfind("none", 0), 0u) << r.isolation;
}

namespace {

// Whether process `pid` has `path` open (any process may end while being read).
bool holds_open(pid_t pid, const fs::path& path) {
    std::error_code ec;
    fs::directory_iterator fd(fmt::format("/proc/{}/fd", pid), ec);
    for (; !ec && fd != fs::directory_iterator(); fd.increment(ec)) {
        std::error_code link_ec;
        if (fs::read_symlink(fd->path(), link_ec) == path && !link_ec) return true;
    }
    return false;
}

}  // namespace

// A FIFO nobody writes, as the program's stdin: opening it for reading would wait for a
// writer for ever (SA_RESTART restarts the open); cgbench waits for one within --timeout
// (exit 3, naming the FIFO's writer) and ends on Ctrl-C (130), within seconds.
TEST(HungStart, AStdinFifoNobodyWritesEndsAtTheTimeoutAndOnCtrlC) {
    const auto dir = scratch("hung-fifo");
    const fs::path fifo = dir / "in.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    for (const bool interrupt : {false, true}) {
        std::vector<std::string> args = {"run", "--no-db", "-q", "--warmup", "0"};
        if (!interrupt) args.insert(args.end(), {"--timeout", "1"});
        args.insert(args.end(), {"--stdin", fifo.string(), "--", program("workload"), "10"});
        bool opened = false;
        std::chrono::steady_clock::time_point signalled;
        std::thread interrupter;
        const auto r = run_cgbench(args, {.started = [&](pid_t pid) {
                                       interrupter = std::thread([&, pid] {
                                           for (int i = 0; i < 300 && !opened; ++i) {
                                               opened = holds_open(pid, fifo);
                                               if (!opened) std::this_thread::sleep_for(20ms);
                                           }
                                           signalled = std::chrono::steady_clock::now();
                                           if (interrupt) ::kill(pid, SIGINT);
                                       });
                                   }});
        interrupter.join();
        const double after =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
        if (interrupt) {
            EXPECT_TRUE(opened) << "cgbench never opened the FIFO: " << r.err;
            EXPECT_EQ(r.exit_code, 130) << r.err;
            EXPECT_LT(after, 8) << "ended " << after << " s after SIGINT";
        } else {
            EXPECT_EQ(r.exit_code, 3) << r.err;
            EXPECT_NE(r.err.find("timed out after 1 s waiting for a writer of its stdin FIFO"),
                      std::string::npos)
                << r.err;
            EXPECT_LT(r.seconds, 9) << r.err;
        }
    }
}

}  // namespace cgbench::e2e
