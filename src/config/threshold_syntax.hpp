#pragma once
// The syntax of a threshold setting (DESIGN §5), checked when a suite or option is read so a
// typo fails before anything runs. Only the syntax lives here: `compare` interprets the
// limits; a run carries the text into its result file ("threshold") unchanged.
//
//   threshold := limit ("," limit)*
//   limit     := [metric "="] percent "%" ["|" floor]
//   metric    := cost | an event name (Ir, D1mr, ...) | l1_hits | ll_hits | ram_hits
//                (case-insensitive; without one the limit is for cost)
//   floor     := a count the change must also exceed, e.g. cost=2%|100000

#include <string>
#include <string_view>

namespace cgbench::config {

// Returns the text trimmed when it is a valid threshold; throws UsageError naming the first
// bad limit and showing the accepted forms otherwise.
std::string validate_threshold(std::string_view text);

}  // namespace cgbench::config
