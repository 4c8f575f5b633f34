#pragma once
// Which functions moved: given the same benchmark measured at a base and a head, the
// functions whose cost changed most, from the per-function costs stored with each result
// (BenchmarkResult::functions). A pure model; reporters render it (report/function_report).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::compare {

struct FunctionChange {
    std::string file;
    std::string name;                   // "(other)": the functions neither side lists
    std::optional<std::uint64_t> base;  // nullopt: not among the base's listed functions
    std::optional<std::uint64_t> head;  // nullopt: not among the head's listed functions
    std::int64_t delta = 0;             // head - base, a side not listed counting as 0
    // delta / (head cost - base cost) of the whole benchmark; nullopt when that is zero.
    std::optional<double> share;
};

// The functions of `base` and `head` (matched by file and name) ranked by |delta|, largest
// first (ties by file and name), unchanged ones left out, at most `limit`. A function listed
// on one side only has usually dropped into the other side's "(other)" entry, which then
// moves the opposite way.
std::vector<FunctionChange> attribute_change(const BenchmarkResult& base,
                                             const BenchmarkResult& head, std::size_t limit = 10);

}  // namespace cgbench::compare
