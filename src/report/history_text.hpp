#pragma once
// How history values read in every format: times and commits, shortened.

#include <optional>
#include <string>
#include <string_view>

namespace cgbench::report {

// "2026-11-22T03:15:00Z" -> "2026-11-22 03:15"; other text as util::printable gives it.
std::string short_time(std::string_view iso);

// The first 7 characters of `commit` (printable), or "-" without one.
std::string short_commit(const std::optional<std::string>& commit);

}  // namespace cgbench::report
