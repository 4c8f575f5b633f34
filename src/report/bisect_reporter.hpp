#pragma once
// Rendering of `cgbench bisect`: the commits the search looked at (from the history or built
// and measured), then the answer: the first commit where a benchmark moved beyond the
// threshold, its subject, the change against the commit before it, and the functions that
// moved.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "history/bisect.hpp"
#include "history/model.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

// One commit the search looked at.
struct BisectProbe {
    std::string commit;
    std::string source;  // "history", "measured", "build failed", "benchmark failed"
    std::optional<history::Verdict> verdict;
    std::string detail;  // the benchmark that moved most against GOOD, or why it was skipped
    double seconds = 0;  // building and measuring it
};

// When BAD did not move beyond the threshold: its largest cost move against GOOD, and a
// --threshold that would call that move one.
struct LargestMove {
    std::string benchmark;
    double change = 0;       // relative
    std::int64_t delta = 0;  // cost units
    std::string threshold;   // e.g. "0.3%"; empty when nothing moved at all
};

struct BisectReport {
    std::string good;  // full commits
    std::string bad;
    std::size_t commits = 0;  // on the first-parent line from GOOD to BAD, both included
    std::string gate;         // the thresholds, described
    std::vector<BisectProbe> probes;
    bool moved = false;                  // BAD moved against GOOD: there was something to find
    std::optional<LargestMove> largest;  // when not moved
    std::optional<std::string> first_moved;
    std::optional<std::string> last_unmoved;
    std::vector<std::string> skipped;  // untestable commits between them
    // last_unmoved against first_moved, benchmark by benchmark (with the functions that moved).
    std::optional<compare::Comparison> change;
    history::Commits commit_info;
    std::size_t from_history = 0;
    std::size_t measured = 0;
};

// Renders a BisectReport (JSON: schema "cgbench-bisect/1").
class BisectReporter {
  public:
    virtual ~BisectReporter() = default;
    virtual std::string render(const BisectReport& report, const RenderOptions& options) const = 0;
};

// "unmoved", "moved", "skipped".
std::string_view to_string(history::Verdict v);

}  // namespace cgbench::report
