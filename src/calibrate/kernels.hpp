#pragma once
// What `cgbench calibrate` measures: the built-in sweep (seed 002's memory-cache walk, linear
// and random, over working sets from 1 KiB to 256 MiB, and compute- and branch-bound loops),
// run by the cgbench-kernels program, and optionally the benchmarks of the user's suite.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/environment.hpp"
#include "runner/benchmark.hpp"

namespace cgbench::calibrate {

struct Kernel {
    std::string name;    // "walk/random/64K", "compute/latency", or the suite benchmark's name
    std::string family;  // "walk/linear", "walk/random", "compute", "branch" or "suite"
    std::optional<std::uint64_t> working_set;  // bytes, for the walks
    // Built-in: the kernel and its parameter, as cgbench-kernels takes them ("walk-random",
    // "65536"). Empty for a suite benchmark.
    std::vector<std::string> kernel_args;
    // A suite benchmark: measured as a whole program, natively and under Cachegrind.
    std::optional<runner::BenchmarkSpec> suite;
};

// 1 KiB, 2 KiB, ... 256 MiB: the 19 powers of two of the default sweep.
std::vector<std::uint64_t> default_sizes();

// "1K,64K,4M" (K, M, G are powers of 1024; plain numbers are bytes) into sizes, each at least
// 64 bytes and at most 64G. Throws UsageError naming the bad entry.
std::vector<std::uint64_t> parse_sizes(std::string_view text);

// "1K", "256M", "1536": the shortest exact spelling parse_sizes reads back.
std::string size_label(std::uint64_t bytes);

// The built-in kernels: both walks over every size (linear first), then compute/latency,
// compute/throughput, branch/predictable and branch/random.
std::vector<Kernel> builtin_kernels(const std::vector<std::uint64_t>& sizes);

// The cgbench-kernels program: $CGBENCH_KERNELS, else next to the running cgbench (the build
// tree), else PREFIX/libexec/cgbench/ for an installed bin/cgbench. Throws EnvironmentError
// naming the places looked at.
std::filesystem::path locate_kernel_program(const exec::EnvMap& env);

}  // namespace cgbench::calibrate
