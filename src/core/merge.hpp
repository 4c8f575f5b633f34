#pragma once
// Joining the result files of a sharded run (`cgbench merge`) into one run, as if the suite
// had been measured in one job.

#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench {

// A run read from a file; `source` names it in messages.
struct SourcedRun {
    std::string source;
    RunResult run;
};

struct MergedRun {
    RunResult run;
    std::vector<std::string> warnings;  // disagreements that were resolved (e.g. git branch)
};

// Merges `parts` into one run with id `id`. Its start is the earliest part's, fingerprint and
// git facts are the first part's, and the benchmarks are in suite order (by "position" when
// every benchmark has one, otherwise by name). Throws UsageError when there are no parts, the
// fingerprints' comparison keys differ (listing the differences), the git commits differ, or
// a benchmark name occurs twice (naming it and its files).
MergedRun merge_runs(const std::vector<SourcedRun>& parts, std::string id);

}  // namespace cgbench
