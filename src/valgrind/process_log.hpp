#pragma once
// What the log of one traced process says about it. With --trace-children=yes and
// --log-file=...%p, Valgrind writes one log per process: a header naming the program and its
// parent, the messages about the run, and the tool's summary at exit.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::valgrind {

// A region marker the program wrote to the log (include/cgbench/cgbench.h, Cachegrind
// regions with CGBENCH_REGION set but empty): "**PID** cgbench:begin:LENGTH:NAME" for a
// BEGIN, "cgbench:end:" for an END. A name with a newline continues on the next "**PID** "
// line; LENGTH says how far.
struct RegionMark {
    bool begin = false;
    std::string name;
};

struct ProcessLog {
    int pid = 0;                      // from the "==PID==" prefix; 0 when the log has none
    std::optional<int> parent_pid;    // "Parent PID: N"
    std::string command;              // "Command: ..." (argv joined by spaces)
    std::optional<int> fatal_signal;  // "Process terminating with default action of signal N"
    // Valgrind's warnings and errors about the program, e.g. "Warning: Can't execute
    // setuid/setgid/setcap executable: /usr/bin/x". The start-up notes about the host's
    // caches (always there, never a cause) are left out.
    std::vector<std::string> notes;
    // Threads the process ran, its main thread included, counted from the thread starts that
    // --trace-sched=yes logs ("SCHED[N]:  acquired lock (thread_wrapper(starting new
    // thread))"); 0 in a log written without that option.
    int threads = 0;
    // How often another thread took over from one whose timeslice ran out (it could have
    // run on): the threads interleaved mid-work, in an order the host's scheduler chose.
    // Hand-overs where a thread waited (a lock, a join, a system call) are not counted.
    int preemptions = 0;
    // The bytes of an instruction Valgrind could not decode ("0xF 0x1 0xF9 ..."), from
    // "vex amd64->IR: unhandled instruction bytes: ..."; empty when there was none. Valgrind
    // then raises SIGILL in the program, which the program ran fine without it.
    std::string unhandled_instruction;
    // The region markers, in the order written.
    std::vector<RegionMark> region_marks;
    // "**PID** cgbench:nested": regions began inside the instrumented one, whose markers the
    // header did not write (include/cgbench/cgbench.h).
    bool regions_nested = false;
};

// Parses a log; never throws (an empty or truncated log gives empty fields).
ProcessLog parse_process_log(std::string_view text);

// What an instruction Valgrind could not decode is and what to do about it, from its bytes
// (ProcessLog::unhandled_instruction): "RDTSCP (0xF 0x1 0xF9), which Go 1.19 uses ...".
std::string describe_unhandled_instruction(std::string_view bytes);

}  // namespace cgbench::valgrind
