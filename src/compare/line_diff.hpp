#pragma once
// Which source lines moved: the kept lines (BenchmarkResult::lines) of one benchmark at a
// base and a head, paired across the two versions of the code. Code inserted above a line
// moves it, so lines pair by file, function and source text, and only then by number. A
// pure model; reporters render it (report/function_report), `cgbench pr` annotates with it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::compare {

struct LineChange {
    std::string file;
    std::string function;
    std::string text;                        // the head's text (the base's for a base-only line)
    std::optional<std::uint32_t> base_line;  // nullopt: not among the base's kept lines
    std::optional<std::uint32_t> head_line;  // nullopt: not among the head's kept lines
    std::optional<std::uint64_t> base;       // the costs, nullopt as the line numbers
    std::optional<std::uint64_t> head;
    // head - base. A side that does not keep the line cost at most its cheapest kept line
    // (each side keeps only its costliest): delta is then the smallest change that fits,
    // and `at_least` is set.
    std::int64_t delta = 0;
    bool at_least = false;
};

// The lines of `base` and `head` whose cost changed, largest |delta| first (ties by file,
// function and head line), at most `limit`. A line pairs with the base line of the same
// file, function and text (whitespace runs counted as one space); several such lines pair in
// the order of their numbers. A line without text (its file was not readable) pairs by file,
// function and number. Empty when either side kept no lines (no line information).
std::vector<LineChange> diff_lines(const std::vector<LineResult>& base,
                                   const std::vector<LineResult>& head, std::size_t limit = 20);

}  // namespace cgbench::compare
