#pragma once
// Rendering of `cgbench history`: one benchmark's series, or the list of stored runs.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "report/reporter.hpp"
#include "store/history_store.hpp"

namespace cgbench::report {

class HistoryReporter {
  public:
    virtual ~HistoryReporter() = default;
    // The series of benchmark `name`, oldest first.
    virtual std::string series(std::string_view name, const std::vector<store::SeriesPoint>& points,
                               const RenderOptions& options) const = 0;
    // Stored runs, newest first.
    virtual std::string runs(const std::vector<store::RunRow>& rows,
                             const RenderOptions& options) const = 0;
};

// Console or JSON (an array); throws UsageError for other formats.
std::unique_ptr<HistoryReporter> make_history_reporter(Format format);

}  // namespace cgbench::report
