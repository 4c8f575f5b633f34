#pragma once
// Launching measured programs: argv only (never a shell), ASLR off, a process group of its
// own, output captured through pipes (so the program's stdio never sees a terminal and
// buffers the same way everywhere), an optional timeout, a bound on the processes it starts,
// and nothing left running afterwards, even when cgbench itself is killed (exec/keeper.hpp).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "exec/sandbox.hpp"

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
    // Stops the whole tree when more than `max` files whose names start with `prefix` have
    // appeared in `dir`: under Valgrind every traced process creates its log file there, so
    // this bounds a fork bomb or a runaway loop of short-lived children.
    struct ProcessLimit {
        std::filesystem::path dir;
        std::string prefix;
        std::size_t max = 0;
    };
    std::optional<ProcessLimit> process_limit;
    // Runs to its end (or timeout_seconds) even once cgbench got SIGINT/SIGTERM/SIGHUP, and
    // never throws Interrupted: for cleanup that runs while unwinding from one (removing a
    // worktree), where a throw would end cgbench with std::terminate.
    bool uninterruptible = false;
    // Run in namespaces of its own with these mounts (exec/sandbox.hpp); argv, cwd and the
    // environment then name the paths inside. nullopt: a plain child of cgbench.
    std::optional<SandboxMounts> sandbox;
};

// TimedOut and Limited: cgbench killed the process tree (timeout, ProcessLimit).
enum class Termination { Exited, Signaled, TimedOut, Limited, SpawnFailed };

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
    // Whether the program's exec succeeded. False when cgbench stopped the run (timeout,
    // Ctrl-C) before that: the keeper's setup or the exec itself did not return (a hung file
    // system, a seccomp supervisor that holds the call).
    bool started = false;
    // TimedOut before anything started: nothing wrote to (or opened) the stdin FIFO.
    bool stdin_unwritten = false;
    // The program's process id (and process group id), as the program and Valgrind see it
    // (2 in a sandbox); 0 if it never started.
    int pid = 0;
    // Processes of its tree still running when the program ended (all killed then; also the
    // ones that left its process group with setsid()). Not set when cgbench killed the tree.
    int leftover_processes = 0;
    bool killed_leftovers = false;  // leftover_processes > 0
    // Processes of its tree cgbench may not kill (a setuid program's, without the sandbox):
    // left running, never waited for.
    int unkillable_processes = 0;
};

// Runs processes; an interface so that pipeline tests can substitute a fake.
class ProcessRunner {
  public:
    virtual ~ProcessRunner() = default;
    // Runs to completion. Throws cgbench::Interrupted (after stopping the process tree) when
    // cgbench receives SIGINT/SIGTERM/SIGHUP (unless spec.uninterruptible), UsageError when
    // stdin_path cannot be opened, EnvironmentError when no process can be started.
    virtual ProcessOutcome run(const ProcessSpec& spec) = 0;
};

// The real thing: fork (a keeper) + fork + execve; polls the output pipes and the keeper's
// events. Safe to call from several threads at once. It stops on a signal only once the
// handlers are installed (exec::install_interrupt_handlers, which cli::main calls first);
// without them a signal ends cgbench and the keeper kills the tree.
class PosixProcessRunner final : public ProcessRunner {
  public:
    ProcessOutcome run(const ProcessSpec& spec) override;
};

// "Segmentation fault (SIGSEGV)".
std::string describe_signal(int signo);

}  // namespace cgbench::exec
