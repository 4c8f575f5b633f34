#pragma once
// The keeper: a small process between cgbench and each program it runs, so that nothing a
// program starts can outlive the measurement, whatever happens to cgbench.
//
//   cgbench ── keeper (own process group, child subreaper) ── program (own group) ── ...
//
// The keeper starts the program, tells cgbench its pid and how it ended, and then kills and
// reaps every process still left in its tree: descendants that called setsid() or left the
// program's group are re-parented to the keeper (it is a subreaper), so none escapes. It does
// the same when cgbench asks (timeout, Ctrl-C, too many processes) and when cgbench
// disappears: the control pipe then reads EOF, also after a SIGKILL of cgbench. The program
// gets PR_SET_PDEATHSIG(SIGKILL) for the case that the keeper itself is killed.
//
// With the sandbox (exec/sandbox.hpp) the keeper is pid 1 of the run's pid namespace: it sets
// the namespace's root up before it starts the program, every orphan comes to it, kill(-1)
// reaches every process but itself, and its death (even by SIGKILL) makes the kernel kill
// every process in the namespace. Without it, a process that runs a setuid program is beyond
// its reach: the keeper reports such processes and stops waiting for them.
//
// The keeper runs in a child forked from a multi-threaded cgbench, so it makes only
// async-signal-safe calls (system calls, no allocation) and never returns.

#include <cstdint>

#include "exec/sandbox_setup.hpp"

namespace cgbench::exec {

// What the keeper reports on its event pipe, in this order.
struct KeeperEvent {
    char kind;  // see below
    std::int32_t value;
};
inline constexpr char kEventPid = 'P';            // the program started: its pid (= its pgid)
inline constexpr char kEventExit = 'X';           // the program exited: its exit status
inline constexpr char kEventSignal = 'S';         // the program was killed by this signal
inline constexpr char kEventLeftover = 'L';       // processes still running when it ended, killed
inline constexpr char kEventForkFailed = 'F';     // could not start the program: errno
inline constexpr char kEventUnkillable = 'U';     // processes that could not be killed (EPERM)
inline constexpr char kEventSandboxFailed = 'N';  // the sandbox could not be set up: errno

// Written by the program's process before execve (on the exec pipe, closed by exec).
struct ChildReport {
    char kind;  // 'A' aslr refused (non-fatal), 'C' chdir failed, 'E' exec failed
    int err;
};

// cgbench writes this byte to the control pipe to have the tree killed now. The keeper reads
// it only once it has reported the program's pid (kEventPid); before that (setting the
// sandbox up, starting the program) cgbench stops a run by killing the keeper itself.
inline constexpr char kControlKill = 'K';

// Everything the keeper needs, prepared before fork (nothing may be allocated after it).
struct KeeperSetup {
    char** argv;
    char** envp;
    const char* cwd;  // nullptr: inherit
    bool disable_aslr;
    int parent_pid;  // cgbench's pid, to notice a parent that died before the keeper started
    // The namespaces to set up first (the keeper was started by clone_sandboxed()); nullptr:
    // none (a plain fork).
    const SandboxSetup* sandbox;
    // Descriptors, in cgbench's numbering; the keeper moves them to 3..8.
    int in_fd, out_fd, err_fd, exec_fd, event_fd, control_fd;
};

// Runs in the forked child. Never returns.
[[noreturn]] void keeper_main(const KeeperSetup& setup);

}  // namespace cgbench::exec
