#pragma once
// What a single run tells about whether its counts can repeat, at no extra run: from the
// functions each process's profile already holds and from when each process ran. Each rule
// names the source and the fix:
//
// - the clock read in a loop: about 100 or more reads in one process (a loop that runs for a
//   set time, a benchmark timing itself; Python is left out: it reads the clock hundreds of
//   times for its own locks whatever the script does);
// - time() read by a process that is not Python or Perl (they read it once at start-up): a
//   seed, as Lua 5.4 seeds its string hashes (luai_makeseed), or srand(time(NULL));
// - entropy: getentropy, arc4random, std::random_device, Rust's hashmap_random_keys, or
//   more getrandom than the C library's own malloc start-up makes (one call, which costs
//   three times as many instructions once the process runs threads: the cancellable path);
// - runtimes that seed themselves whatever the program does: Ruby's hashes (from getentropy:
//   --fixed-random pins them), Go's maps, V8's hash seed;
// - a process that read() while another ran beside it, neither started by the other: one
//   reading a pipe the other writes (a shell pipeline) reads it in pieces that depend on
//   scheduling. (Workers that write to the parent that started them do not count.)
// Reads of /dev/urandom show through the functions that make them (random_device, Go's
// runtime); a program that opens it itself is not seen. --fixed-clock and --fixed-random
// silence the rules they make moot.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/sandbox.hpp"
#include "metrics/profile.hpp"

namespace cgbench::runner {

// Whether profile function `name` is one the rules read (metrics::ProfileRequest::watch).
bool repeatability_function(std::string_view name);

// One counted process of a run, as the rules see it.
struct ProcessEvidence {
    std::string command;                         // for messages, as shown to the user
    std::vector<metrics::FunctionCost> watched;  // Profile::watched of its profile
    std::optional<std::size_t> parent;           // index of the process that started it
    std::int64_t started_ns = 0;                 // when it started and ended (its Valgrind
    std::int64_t ended_ns = 0;                   // log's birth and last write); 0: unknown
    int threads = 1;                             // the most threads it ran (ProcessLog)
};

// The warnings for a run of `processes`, given what `fixed` pinned. Empty when nothing
// suggests the counts can differ between runs.
std::vector<std::string> repeatability_warnings(const std::vector<ProcessEvidence>& processes,
                                                exec::FixedInputs fixed);

}  // namespace cgbench::runner
