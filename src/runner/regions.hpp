#pragma once
// Regions (include/cgbench/cgbench.h) from what Valgrind recorded of their markers.
// Callgrind: the markers dump at every BEGIN ("cgbench:begin:NAME") and END
// ("cgbench:end:NAME"), so each part holds the costs of one interval, and the triggers tell
// which regions were open during it. A part's costs go to every region open during it (once,
// even when a region is open twice through recursion); a region entered many times sums its
// intervals. Cachegrind: the markers are lines of the log (valgrind::RegionMark), which give
// the regions' names, entries and nesting; each region's costs come from a run of its own.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/profile.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::runner {

struct RegionCost {
    std::string name;
    std::uint64_t entries = 0;  // BEGINs while it was not already open
    // The summed parts: totals, and per-function self costs when the parts carry them.
    metrics::Profile profile;
};

// Follows BEGIN and END markers in order: which regions are open, their names in order of
// first BEGIN and their entries; the first marker that breaks nesting stops it with `error`
// naming the region.
class RegionNesting {
  public:
    // Applies one marker; false (and error() says why) when it breaks nesting or the name
    // holds a newline.
    bool apply(bool begin, std::string_view name);
    // After the last marker: false (and error() says why) when a region is still open.
    bool finish();

    // Indexes into regions() of the open regions, innermost last (a region open twice
    // through recursion appears twice).
    const std::vector<std::size_t>& open() const { return open_; }
    // Every region begun so far, in order of first BEGIN (profiles empty).
    std::vector<RegionCost>& regions() { return regions_; }
    const std::string& error() const { return error_; }

  private:
    std::vector<RegionCost> regions_;
    std::vector<std::size_t> open_;
    std::string error_;
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
RegionAttribution attribute_regions(const std::vector<metrics::Profile>& parts);

// The regions the logged markers `marks` describe (Cachegrind): names, entries, and `error`
// as attribute_regions gives it; the profiles are left empty.
RegionAttribution regions_of(const std::vector<valgrind::RegionMark>& marks);

}  // namespace cgbench::runner
