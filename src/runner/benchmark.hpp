#pragma once
// What to measure (BenchmarkSpec) and how (MeasureSettings).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/sandbox.hpp"
#include "metrics/score.hpp"
#include "valgrind/command.hpp"
#include "valgrind/cpu_baseline.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::runner {

// A Google Benchmark binary (`cgbench run --gbench`, `[[gbench]]`). Planning lists the binary
// and turns one target into one spec per benchmark, each with `benchmark` set.
struct GbenchTarget {
    std::string filter;     // --benchmark_filter for listing; empty: every benchmark
    std::string benchmark;  // one benchmark's full name ("BM_x/64"); empty until listed
    // --benchmark_min_time value that runs exactly one iteration: "0" on 1.7, "1x" on >= 1.8.
    std::string min_time = "0";
};

// What one benchmark measures (runner/measurement.hpp has a strategy for each).
enum class MeasureKind {
    Program,  // the whole program, every process it starts
    Regions,  // the regions it marks (include/cgbench/cgbench.h), one result each
    Gbench,   // one Google Benchmark benchmark (`gbench` says which)
};

struct BenchmarkSpec {
    std::string name;
    std::vector<std::string> command;  // program and arguments, as the user wrote them
    std::filesystem::path cwd;         // empty: the current directory
    // Where a relative program path (command[0] with a '/') is resolved; empty: `cwd`. A suite
    // sets its own directory, so commands read the same wherever cgbench is started.
    std::filesystem::path base_dir;
    std::vector<exec::EnvRequest> env;
    std::string stdin_path;  // empty: /dev/null
    std::optional<double> timeout_seconds;
    std::string threshold;                // validated threshold text, carried into the result
    std::optional<std::size_t> position;  // index of the suite entry; empty for a single program
    MeasureKind kind = MeasureKind::Program;
    // Set (and `kind` Gbench) for a Google Benchmark binary: `command` is the binary and its
    // extra arguments, and the benchmark's cost per iteration of its measured loop is
    // measured under Callgrind.
    std::optional<GbenchTarget> gbench;
    // Whole programs: which processes count (every one the program starts, or the started one).
    ProcessMode processes = ProcessMode::Tree;
    // A child killed by a fault signal (SIGSEGV, SIGABRT, ...) fails the benchmark unless set.
    bool allow_child_crash = false;
    // Traced processes a run may start before it is stopped as a runaway (fork bomb).
    std::size_t max_processes = kDefaultMaxProcesses;
    // Native runs before the measured one, so first-run effects (Python's __pycache__, a
    // tool's caches) are settled whether the checkout is fresh or not.
    int warmup = 1;
    // Runs that must give the same counts when the benchmark is new (the suite's `verify`),
    // and the runs this run makes of it (at least the run's --verify): planning sets `verify`
    // from `verify_new` for a benchmark its baseline lacks.
    int verify_new = 1;
    int verify = 1;

    static constexpr std::size_t kDefaultMaxProcesses = 1000;
};

struct MeasureSettings {
    valgrind::Geometry geometry = valgrind::ci_default_geometry();
    metrics::Weights weights = metrics::parse_weights("pythonspeed");
    valgrind::CpuBaseline cpu_baseline = valgrind::CpuBaseline::Portable;
    bool branch_sim = false;
    // Which tool measures regions (auto: Cachegrind on Valgrind >= 3.22, else Callgrind).
    valgrind::RegionTool region_tool = valgrind::RegionTool::Auto;
    bool echo_output = false;            // --show-output
    std::filesystem::path keep_raw_dir;  // empty: raw files are discarded
    // --fixed-clock / --fixed-random: what the program reads of the clock and of entropy.
    exec::FixedInputs fixed;
};

// The longest default name: names head tables and rows of every listing.
inline constexpr std::size_t kMaxDefaultNameBytes = 120;

// The default name of a benchmark: the program's file name and its arguments. Longer than
// kMaxDefaultNameBytes, it keeps its first 100 bytes (whole characters) and ends with
// "… #" and a hash of the whole, so different long commands keep different names.
std::string default_benchmark_name(const std::vector<std::string>& command);

}  // namespace cgbench::runner
