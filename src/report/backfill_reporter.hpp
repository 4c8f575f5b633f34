#pragma once
// Rendering of `cgbench backfill`: each past commit of the range with what became of it
// (measured and recorded on its branch, already in the history, skipped and why), then the
// totals.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "report/reporter.hpp"

namespace cgbench::report {

// What became of one commit.
enum class BackfillOutcome {
    Measured,         // built, measured and recorded
    BenchmarkFailed,  // built and recorded, but a benchmark failed
    Stored,           // the history holds it already under this fingerprint: not measured
    BuildFailed,      // skipped: its build failed (nothing recorded)
    CannotMeasure,    // skipped: its suite or a program is missing (nothing recorded)
};
// "measured", "benchmark failed", "in the history", "build failed", "cannot measure".
std::string_view to_string(BackfillOutcome o);
// Whether the commit is in the history afterwards.
bool recorded(BackfillOutcome o);

struct BackfillCommit {
    std::string commit;  // full id
    std::string subject;
    std::string committed;  // commit date as git writes it (%cI); empty when unknown
    BackfillOutcome outcome = BackfillOutcome::Measured;
    std::string detail;  // why it was skipped, or what failed
    std::string run;     // the run recorded (or found in the history)
    double seconds = 0;  // building and measuring it
};

// The model `cgbench backfill` renders.
struct BackfillReport {
    std::string range;   // as given
    std::string branch;  // the line the commits were recorded on
    std::string database;
    std::string fingerprint;              // the key of this machine's measurements
    std::size_t in_range = 0;             // first-parent commits in the range
    std::vector<BackfillCommit> commits;  // those chosen (--every, --last), oldest first
    bool shallow = false;                 // the clone is shallow: the range may be cut
    double seconds = 0;                   // the whole backfill
    bool interrupted = false;             // stopped by a signal: the rest was not looked at
};

// How many of `r`'s commits ended with outcome `o`.
std::size_t count(const BackfillReport& r, BackfillOutcome o);

// Renders a BackfillReport (JSON: schema "cgbench-backfill/1").
class BackfillReporter {
  public:
    virtual ~BackfillReporter() = default;
    virtual std::string render(const BackfillReport& report,
                               const RenderOptions& options) const = 0;
};

}  // namespace cgbench::report
