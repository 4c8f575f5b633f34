#pragma once
// Streaming parser for callgrind.out files (Valgrind's "Callgrind Format Specification",
// version 1). Works on a buffer without copying lines and produces the same Profile as the
// Cachegrind parser: tool "callgrind", totals from the `totals:` line, checked against the
// sum of self costs, and per-function self costs when asked. Handles name compression
// (`fn=(2) name` / `fn=(2)`), inlined files (`fi=`/`fe=`), call costs (the cost line after
// `calls=` is the callee's inclusive cost and is not the caller's self cost), jumps,
// subposition compression (`+N`, `-N`, `*`, hex) and `positions: instr line`.
//
// `summary:` is read but not trusted: Callgrind computes it apart from the cost lines and it
// can differ from them (by 2 Ir in tests/data/callgrind/varint-cache.out).

#include <filesystem>
#include <string_view>
#include <vector>

#include "valgrind/profile.hpp"
#include "valgrind/profile_builder.hpp"

namespace cgbench::valgrind {

// Parses a whole callgrind.out buffer (one dump part). Throws ParseError.
Profile parse_callgrind(std::string_view data, const ParseOptions& options = {});

// Maps the file and parses it. Throws ParseError (with the path in the message) or
// EnvironmentError when the file cannot be read.
Profile parse_callgrind_file(const std::filesystem::path& path, const ParseOptions& options = {});

// Every dump part Callgrind wrote for --callgrind-out-file=`base`: `base.1`, `base.2`, ...
// and `base` itself (the dump at program termination), ordered by their `part:` numbers.
// Throws ParseError when a part is malformed or two files claim the same part, and
// EnvironmentError when `base` is missing.
std::vector<Profile> parse_callgrind_parts(const std::filesystem::path& base,
                                           const ParseOptions& options = {});

// The files of the parts of `base` that exist, `base` last.
std::vector<std::filesystem::path> callgrind_part_files(const std::filesystem::path& base);

}  // namespace cgbench::valgrind
