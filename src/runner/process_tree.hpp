#pragma once
// The processes of one whole-program run, from Valgrind's per-process files (every child is
// traced, every process writes its own files): which ran, in what order, which count, and
// how each ended.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "valgrind/command.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::runner {

// One traced process, as its files describe it.
struct TracedProcess {
    int pid = 0;
    valgrind::ProcessLog log;
    std::filesystem::path log_file;
    std::filesystem::path profile;  // empty: it wrote none (killed, or still running at the end)
    // When it started and ended: its log's birth and last write (Valgrind writes the summary
    // at exit), in nanoseconds of the real-time clock; 0 when the file system cannot say.
    std::int64_t started_ns = 0;
    std::int64_t ended_ns = 0;
};

// Every traced process in `files`: the started one (`root_pid`) first, then depth first with
// children in pid order (the order they started, unless pids wrapped around); processes whose
// parent was not traced come last, in pid order.
std::vector<TracedProcess> traced_processes(const valgrind::OutputFiles& files, int root_pid);

// How command lines are shown and keyed: the program's staged path as the user gave it, and
// any other path through the staging link as ".../rest" (the link's name is not stable
// across checkouts).
struct CommandNames {
    std::string staged;    // the path the program ran by
    std::string as_given;  // the program as the user wrote it
    std::string link;      // the staging link, a prefix of `staged`
    std::string display(std::string_view command) const;
};

// The result's process list without events: parents, forked copies (a child whose command
// equals its parent's did not exec), which count under `mode` (Tree: all; Main: the started
// process), and the started process's exit code.
std::vector<ProcessResult> describe_processes(const std::vector<TracedProcess>& traced,
                                              ProcessMode mode, const CommandNames& names,
                                              std::optional<int> root_exit_code);

// Sets `result.threads` to the most threads one of the `counted` processes of `traced` ran
// (counted[i] for traced[i]; all when `counted` is empty) and, above 1, adds the warning that
// the counts are not repeatable, naming the mid-work switches the scheduler's log shows.
void mark_threads(const std::vector<TracedProcess>& traced, const std::vector<bool>& counted,
                  BenchmarkResult& result);

// Why a process of `traced` got SIGILL from Valgrind rather than from its own code: the
// instruction Valgrind could not decode, described with the fix; "" when none did.
std::string undecodable_instruction(const std::vector<TracedProcess>& traced);

// The failure of a run that left `count` processes cgbench may not kill (a setuid program's,
// without the sandbox).
std::string unkillable_error(int count);

// Signals that mean a process crashed (a fault: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
// SIGSYS, SIGTRAP) rather than was told to stop (SIGTERM, SIGKILL, SIGPIPE, ...).
bool is_crash_signal(int signo);

// "process 3 (worker --id 2)": how messages name process `index` of `processes`.
std::string process_label(const std::vector<ProcessResult>& processes, std::size_t index);

}  // namespace cgbench::runner
