#pragma once
// Streaming parser for cachegrind.out files (format of Valgrind 3.x). Works on a buffer
// without copying lines; per-function totals are optional because most runs need only the
// summary. The file's `summary:` is cross-checked against the sum of its count lines, so a
// truncated or edited file is an error, never a wrong number.

#include <filesystem>
#include <string_view>

#include "valgrind/profile.hpp"
#include "valgrind/profile_builder.hpp"

namespace cgbench::valgrind {

// Parses a whole cachegrind.out buffer. Throws ParseError.
Profile parse_cachegrind(std::string_view data, const ParseOptions& options = {});

// Maps the file and parses it. Throws ParseError (with the path in the message) or
// EnvironmentError when the file cannot be read.
Profile parse_cachegrind_file(const std::filesystem::path& path, const ParseOptions& options = {});

}  // namespace cgbench::valgrind
