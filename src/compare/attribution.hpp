#pragma once
// Which functions moved: given the same benchmark measured at a base and a head, the
// functions whose cost changed most, from the per-function costs stored with each result
// (BenchmarkResult::functions). A pure model; reporters render it (report/function_report).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cgbench::compare {

struct FunctionChange {
    std::string file;
    std::string name;                   // "(other)": the functions neither side lists
    std::string base_name;              // the base's name, when the same function had another
    std::optional<std::uint64_t> base;  // nullopt: not among the base's listed functions
    std::optional<std::uint64_t> head;  // nullopt: not among the head's listed functions
    std::int64_t delta = 0;             // head - base, a side not listed counting as 0
    // delta / (head cost - base cost) of the whole benchmark; nullopt when that is zero.
    std::optional<double> share;
};

// The functions of `base` and `head` (matched by file and name) ranked by |delta|, largest
// first (ties by file and name), unchanged ones left out, at most `limit`. A function listed
// on one side only has usually dropped into the other side's "(other)" entry, which then
// moves the opposite way. A function two Valgrind versions name differently is matched when
// the pairing is unique: with and without its parameter list (Callgrind 3.24's overloads), or
// an unnamed function's address moved with the executable's load address (3.25); `base_name`
// then holds the base's name.
std::vector<FunctionChange> attribute_change(const BenchmarkResult& base,
                                             const BenchmarkResult& head, std::size_t limit = 10);

// A function's name without a trailing parameter list and qualifiers: "ns::f(int) const" ->
// "ns::f"; a name that is not a signature ("main", "(below main)") comes back unchanged.
std::string function_without_parameters(std::string_view name);

// One process of a benchmark, base vs head (counted processes only).
struct ProcessChange {
    std::string process;                // its command, then " #N" for its N-th occurrence (N > 1)
    std::optional<std::uint64_t> base;  // its cost; nullopt: no such process in the base
    std::optional<std::uint64_t> head;  // nullopt: no such process in the head
    std::int64_t delta = 0;
    std::optional<double> share;  // delta / the benchmark's cost change; nullopt when that is 0
};

// The processes of `base` and `head` whose cost changed, matched by command line and rank
// among processes with that command line (pids differ from run to run), largest |delta|
// first, at most `limit`. Empty unless more than one process ran on either side (a side that
// ran one process counts as that process, its command the benchmark's).
std::vector<ProcessChange> attribute_process_change(const BenchmarkResult& base,
                                                    const BenchmarkResult& head,
                                                    std::size_t limit = 10);

}  // namespace cgbench::compare
