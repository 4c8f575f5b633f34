#pragma once
// Region costs from Callgrind's dump parts. The markers of include/cgbench/cgbench.h dump at
// every BEGIN ("cgbench:begin:NAME") and END ("cgbench:end:NAME"), so each part holds the
// costs of one interval, and the triggers tell which regions were open during it. A part's
// costs go to every region open during it (once, even when a region is open twice through
// recursion); a region entered many times sums its intervals.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "valgrind/profile.hpp"

namespace cgbench::runner {

struct RegionCost {
    std::string name;
    std::uint64_t entries = 0;  // BEGINs while it was not already open
    // The summed parts: totals, and per-function self costs when the parts carry them.
    valgrind::Profile profile;
};

struct RegionAttribution {
    std::vector<RegionCost> regions;  // in order of first BEGIN
    // Why the markers do not form properly nested regions ("began region 'x' and never ended
    // it"); empty if they do.
    std::string error;
};

// What a dump's trigger says: a region marker, or anything else (program termination, a
// dump the program asked for itself).
struct RegionMarker {
    bool begin = false;
    std::string_view name;
};
std::optional<RegionMarker> region_marker(std::string_view trigger);

// Attributes `parts` (in dump order) to regions. Errors (a region begun and never ended, an
// END without BEGIN, regions that overlap without nesting) come back in `error`, naming the
// region. Throws UsageError when the parts record different events or a sum overflows.
RegionAttribution attribute_regions(const std::vector<valgrind::Profile>& parts);

}  // namespace cgbench::runner
