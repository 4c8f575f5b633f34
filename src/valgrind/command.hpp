#pragma once
// Building Valgrind command lines. Always explicit: --cache-sim (3.21 changed its default)
// and all three cache geometries (defaults copy the host). Valgrind follows exec and traces
// every child (--trace-children=yes), and each process writes its own files (%p), so a
// wrapper script, an `env` shebang or a forked worker is measured, never silently lost or
// overwritten. Only the command line configures Valgrind (--command-line-only=yes): a
// ~/.valgrindrc, ./.valgrindrc or VALGRIND_OPTS of the caller cannot change the counts.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "valgrind/geometry.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::valgrind {

// Cachegrind measures whole programs, and regions (include/cgbench/cgbench.h) on Valgrind
// 3.22 and later, which gave it start/stop requests; Callgrind measures regions below 3.22
// (or when asked) and Google Benchmark binaries. The two count slightly differently, so
// results of one are never compared with the other's.
enum class Tool { Cachegrind, Callgrind };

// "cachegrind" / "callgrind": the --tool value, the fingerprint's and results' `tool`.
std::string_view to_string(Tool tool);

// Which tool measures regions (--region-tool, suite `region_tool`, CGBENCH_REGION_TOOL).
enum class RegionTool { Auto, Cachegrind, Callgrind };

// Parses "auto", "cachegrind" or "callgrind"; UsageError otherwise.
RegionTool parse_region_tool(std::string_view text);
std::string_view to_string(RegionTool tool);

// The first Valgrind whose Cachegrind has start/stop requests (--instr-at-start).
inline constexpr int kCachegrindRegionsMajor = 3;
inline constexpr int kCachegrindRegionsMinor = 22;

// The tool that measures regions under `choice` with `inst`: auto is Cachegrind from 3.22
// on, Callgrind below. EnvironmentError (exit 4) when Cachegrind is asked for below 3.22.
Tool region_tool(RegionTool choice, const Installation& inst);

struct ToolOptions {
    Tool tool = Tool::Cachegrind;
    Geometry geometry = ci_default_geometry();
    bool cache_sim = true;
    bool branch_sim = false;
    // Callgrind only: --dump-before=/--dump-after= function patterns. With them Callgrind
    // collects from the start and the dumps split the run (Google Benchmark binaries);
    // without them it collects only inside regions.
    std::vector<std::string> dump_triggers;
    // Callgrind only: collect from the start without dumps (the whole program's call graph).
    bool collect_at_start = false;
    // Cachegrind only: false simulates nothing until the program's start request
    // (--instr-at-start=no, Valgrind >= 3.22): regions.
    bool instr_at_start = true;
};

// Options that are part of the fingerprint: everything except the geometry and file paths.
std::vector<std::string> behaviour_args(const ToolOptions& options);

// Where one run's processes write: DIR/<tool>.out.<pid> and DIR/valgrind.log.<pid>. A
// process that execs keeps its pid, so its files hold the last program it became; a forked
// child gets files of its own. Callgrind writes out_file(pid) at exit and out_file(pid).1,
// .2, ... for each dump before it.
struct OutputFiles {
    std::filesystem::path dir;
    Tool tool = Tool::Cachegrind;

    std::filesystem::path out_file(int pid) const;
    std::filesystem::path log_file(int pid) const;
    // Valgrind's templates for the two (with %p).
    std::string out_template() const;
    std::string log_template() const;
    // The pid in the name of a file of this run ("valgrind.log.123" -> 123), or nullopt.
    std::optional<int> log_pid(std::string_view file_name) const;
    std::optional<int> out_pid(std::string_view file_name) const;
};

// The prefix of every log file name: each traced process creates one when it starts.
inline constexpr std::string_view kLogPrefix = "valgrind.log.";

// The full argv: launcher, tool options, output paths, "--", then the program's argv.
std::vector<std::string> valgrind_command(const Installation& inst, const ToolOptions& options,
                                          const OutputFiles& files,
                                          const std::vector<std::string>& program_argv);

}  // namespace cgbench::valgrind
