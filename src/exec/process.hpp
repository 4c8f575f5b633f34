#pragma once
// Launching measured programs: argv only (never a shell), ASLR off, a process group of its
// own, output captured through pipes (so the program's stdio never sees a terminal and
// buffers the same way everywhere), an optional timeout, and nothing left running afterwards.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cgbench::exec {

struct ProcessSpec {
    std::vector<std::string> argv;  // argv[0] is the file executed (a path, not searched)
    std::vector<std::string> env;   // the complete environment, "KEY=VALUE"
    std::string cwd;                // empty: inherit
    std::string stdin_path;         // empty: /dev/null
    bool disable_aslr = true;       // personality(ADDR_NO_RANDOMIZE) in the child
    std::optional<double> timeout_seconds;
    bool echo_output = false;            // copy the child's output to our stderr as it arrives
    std::size_t tail_bytes = 64 * 1024;  // how much of stdout/stderr to keep
};

enum class Termination { Exited, Signaled, TimedOut, SpawnFailed };

struct ProcessOutcome {
    Termination how = Termination::Exited;
    int exit_code = 0;  // when Exited
    int signal = 0;     // when Signaled
    std::string stdout_tail;
    std::string stderr_tail;
    double wall_seconds = 0;
    // ASLR: errno of a refused personality() call (Docker's seccomp refuses it), 0 if done
    // or not requested.
    int aslr_errno = 0;
    // When SpawnFailed: which step failed ("chdir", "exec") and its errno.
    std::string spawn_step;
    int spawn_errno = 0;
    bool killed_leftovers = false;  // processes of the group outlived the program
};

// Runs processes; an interface so that pipeline tests can substitute a fake.
class ProcessRunner {
  public:
    virtual ~ProcessRunner() = default;
    // Runs to completion. Throws cgbench::Interrupted (after stopping the process group) when
    // cgbench receives SIGINT/SIGTERM/SIGHUP, UsageError when stdin_path cannot be opened.
    virtual ProcessOutcome run(const ProcessSpec& spec) = 0;
};

// The real thing: fork + execve, poll on pipes and a pidfd.
class PosixProcessRunner final : public ProcessRunner {
  public:
    PosixProcessRunner();
    ProcessOutcome run(const ProcessSpec& spec) override;
};

// "Segmentation fault (SIGSEGV)".
std::string describe_signal(int signo);

}  // namespace cgbench::exec
