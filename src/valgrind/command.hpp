#pragma once
// Building Valgrind command lines. Always explicit: --cache-sim (3.21 changed its default)
// and all three cache geometries (defaults copy the host).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "valgrind/geometry.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::valgrind {

// Cachegrind measures whole programs; Callgrind measures regions (include/cgbench/cgbench.h),
// since only it has start/stop requests in Valgrind < 3.22. The two count slightly
// differently, so results of one are never compared with the other's.
enum class Tool { Cachegrind, Callgrind };

// "cachegrind" / "callgrind": the --tool value, the fingerprint's and results' `tool`.
std::string_view to_string(Tool tool);

struct ToolOptions {
    Tool tool = Tool::Cachegrind;
    Geometry geometry = ci_default_geometry();
    bool cache_sim = true;
    bool branch_sim = false;
    // Callgrind only: --dump-before=/--dump-after= function patterns. With them Callgrind
    // collects from the start and the dumps split the run (Google Benchmark binaries);
    // without them it collects only inside regions.
    std::vector<std::string> dump_triggers;
};

// Options that are part of the fingerprint: everything except the geometry and file paths.
std::vector<std::string> behaviour_args(const ToolOptions& options);

// The full argv: launcher, tool options, output paths, "--", then the program's argv.
// Callgrind writes `out_file` at exit and `out_file`.1, .2, ... for each dump before it.
std::vector<std::string> valgrind_command(const Installation& inst, const ToolOptions& options,
                                          const std::filesystem::path& out_file,
                                          const std::filesystem::path& log_file,
                                          const std::vector<std::string>& program_argv);

}  // namespace cgbench::valgrind
