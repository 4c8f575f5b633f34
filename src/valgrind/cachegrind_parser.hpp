#pragma once
// Streaming parser for cachegrind.out files (format of Valgrind 3.x). Works on a buffer
// without copying lines; per-function totals are optional because most runs need only the
// summary. The file's `summary:` is cross-checked against the sum of its count lines, so a
// truncated or edited file is an error, never a wrong number.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "valgrind/profile.hpp"

namespace cgbench::valgrind {

// A malformed profile. what() names the line; the exit code is that of bad input (2).
class ParseError : public UsageError {
public:
    // `source` (a path) may be empty; the message reads "source:line: reason".
    ParseError(std::size_t line, std::string reason, std::string source = {});
    std::size_t line() const noexcept { return line_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    std::size_t line_;
    std::string reason_;
};

struct ParseOptions {
    bool collect_functions = false;
};

// Parses a whole cachegrind.out buffer. Throws ParseError.
Profile parse_cachegrind(std::string_view data, const ParseOptions& options = {});

// Maps the file and parses it. Throws ParseError (with the path in the message) or
// EnvironmentError when the file cannot be read.
Profile parse_cachegrind_file(const std::filesystem::path& path,
                              const ParseOptions& options = {});

}  // namespace cgbench::valgrind
