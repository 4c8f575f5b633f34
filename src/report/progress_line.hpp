#pragma once
// The text of suite progress (the CLI decides where and when it is shown): one live line for a
// terminal, one plain line per finished benchmark for logs.

#include <cstddef>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::report {

struct ProgressState {
    std::size_t done = 0;
    std::size_t total = 0;
    double elapsed_seconds = 0;
    std::vector<std::string> running;  // names, in the order they started
};

// "[3/8] 12.4s  running: parse/large, parse/small", cut to `width` columns (ending in "...")
// so that a terminal never wraps it.
std::string live_progress_line(const ProgressState& state, std::size_t width);

// "cgbench: [3/8] parse/large ok 2.31s"; a failure adds its reason in parentheses.
std::string progress_log_line(std::size_t done, std::size_t total, const BenchmarkResult& result);

}  // namespace cgbench::report
