#pragma once
// The parsed content of a Cachegrind (or Callgrind) output file: what the parsers produce and
// everything downstream consumes. Parsers never print; they fill this model or throw.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/events.hpp"

namespace cgbench::valgrind {

// The name of the entry that sums the functions a profile or result does not list one by one.
inline constexpr std::string_view kOtherFunctions = "(other)";

// Self costs of one function (file-qualified), for the events cgbench knows (columns of
// unknown events are not kept per function).
struct FunctionCost {
    std::string file;
    std::string name;
    metrics::EventCounts counts;
};

struct Profile {
    std::string tool;               // "cachegrind" or "callgrind"
    std::vector<std::string> desc;  // `desc:` lines (cache geometry as Valgrind saw it)
    std::string cmd;                // `cmd:` line
    std::size_t part = 0;           // Callgrind: `part:`, the dump's number (1, 2, ...)
    std::string trigger;            // Callgrind: why the dump was written (`desc: Trigger:`)
    // The `events:` columns in file order; nullopt for an event cgbench does not know (kept
    // so later columns still line up).
    std::vector<std::optional<metrics::Event>> columns;
    std::vector<std::string> column_names;
    // The file's `summary:` (Cachegrind) or `totals:` (Callgrind), checked against the sum of
    // its self-cost lines.
    metrics::EventCounts totals;
    std::vector<FunctionCost> functions;  // filled only when requested

    // The column of `e`, or nullopt when the file did not record it.
    std::optional<std::size_t> column_of(metrics::Event e) const;
};

}  // namespace cgbench::valgrind
