#pragma once
// Building Valgrind command lines. Always explicit: --cache-sim (3.21 changed its default)
// and all three cache geometries (defaults copy the host).

#include <filesystem>
#include <string>
#include <vector>

#include "valgrind/geometry.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::valgrind {

struct CachegrindOptions {
    Geometry geometry = ci_default_geometry();
    bool cache_sim = true;
    bool branch_sim = false;
};

// Options that are part of the fingerprint: everything except the geometry and file paths.
std::vector<std::string> cachegrind_behaviour_args(const CachegrindOptions& options);

// The full argv: launcher, tool options, output paths, "--", then the program's argv.
std::vector<std::string> cachegrind_command(const Installation& inst,
                                            const CachegrindOptions& options,
                                            const std::filesystem::path& out_file,
                                            const std::filesystem::path& log_file,
                                            const std::vector<std::string>& program_argv);

}  // namespace cgbench::valgrind
