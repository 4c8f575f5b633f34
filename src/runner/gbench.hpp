#pragma once
// Google Benchmark binaries measured per benchmark, without recompiling them. Each benchmark
// runs in its own Callgrind process with one iteration per repetition
// (--benchmark_min_time=0 on 1.7, =1x on >= 1.8) and three repetitions. Callgrind dumps
// after benchmark::State::StartKeepRunning and ResumeTiming, and before FinishKeepRunning and
// PauseTiming, so every dump part is either inside the measured loop (timed) or outside it
// (start-up, registration, setup before the loop, paused code, reporting). The pure pieces
// live here; runner/gbench_list.cpp runs the binary, GbenchBenchmark (gbench_measure.cpp) measures.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "metrics/profile.hpp"

namespace cgbench::runner {

// The Valgrind options that split a Google Benchmark run into timed and untimed dump parts.
std::vector<std::string> gbench_dump_args();

// Whether the file at `path` is a Google Benchmark binary: it names libbenchmark (a dynamic
// dependency) or holds the library's flag names (linked statically). Throws UsageError when
// it cannot be read.
bool is_gbench_binary(const std::filesystem::path& path);

// "^NAME$" with every regex metacharacter of NAME escaped, for --benchmark_filter (the
// library's regexes are POSIX extended or std::regex extended; both take backslash escapes).
std::string exact_filter(std::string_view benchmark);

// The benchmark names printed by --benchmark_list_tests=true, one a line, in order.
std::vector<std::string> parse_benchmark_list(std::string_view stdout_text);

// Whether `help_text` (the binary's --help) is from Google Benchmark >= 1.8, whose
// --benchmark_min_time takes "<integer>x" for a fixed iteration count.
bool accepts_iteration_min_time(std::string_view help_text);

// The measured loops of one run: one per repetition, in order.
struct GbenchLoop {
    metrics::ProfileSum timed;    // the timed parts of the repetition, summed
    std::uint64_t intervals = 0;  // timed parts (1 + the PauseTiming/ResumeTiming pairs)

    const metrics::Profile& profile() const { return timed.profile(); }
};

struct GbenchLoops {
    std::vector<GbenchLoop> loops;
    std::string error;  // why the parts do not form measured loops; empty if they do
};

// Splits `parts` (in dump order) into measured loops: a part is timed when the previous dump
// was after StartKeepRunning or ResumeTiming and its own is before PauseTiming or
// FinishKeepRunning. A loop ends at FinishKeepRunning.
GbenchLoops select_loops(const std::vector<metrics::Profile>& parts);

// One entry of the binary's JSON report ("run_type": "iteration"; aggregates are skipped).
struct GbenchRun {
    std::string name;
    std::uint64_t iterations = 0;
    std::uint64_t threads = 1;
    bool error_occurred = false;  // SkipWithError
    std::string error_message;    // its message
    bool skipped = false;         // SkipWithMessage (Google Benchmark >= 1.8)
    std::string skip_message;     // its message
};

// The iteration runs of a --benchmark_format=json report. Throws UsageError when the text
// is not such a report.
std::vector<GbenchRun> parse_gbench_report(std::string_view json_text);

// The cost of one iteration of `benchmark`'s measured loop, from its report and its loops.
struct GbenchMeasurement {
    metrics::Profile profile;  // per iteration, of the last repetition
    GbenchInfo info;
    std::string error;  // why there is no cost (SkipWithError, no loop, ...)
    std::vector<std::string> warnings;
};
GbenchMeasurement measured_loop(std::string_view benchmark, const std::vector<GbenchRun>& runs,
                                const GbenchLoops& loops);

// `profile` divided by `iterations`, totals and per-function costs, rounded to nearest.
metrics::Profile per_iteration(const metrics::Profile& profile, std::uint64_t iterations);

}  // namespace cgbench::runner
