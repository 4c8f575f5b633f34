#pragma once
// Rendering of `cgbench history`: one benchmark's series, or the list of stored runs.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/lines.hpp"
#include "history/model.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

// One benchmark's results as `cgbench history NAME` shows them: every result (all branches,
// uncommitted changes included), oldest first, each change against the previous ok result
// of its epoch, and the epochs (where the fingerprint's key changes).
struct SeriesView {
    std::string name;
    const history::History* history = nullptr;
    std::vector<history::Result> points;
    std::vector<std::optional<double>> changes;  // parallel to points
    std::vector<history::Epoch> epochs;          // over points
};

// The view of `series` (one of h.series).
SeriesView view_series(const history::History& h, const history::Series& series);

// Renders `cgbench history` (JSON: an array).
class HistoryReporter {
  public:
    virtual ~HistoryReporter() = default;
    // One benchmark's series, oldest first.
    virtual std::string series(const SeriesView& view, const RenderOptions& options) const = 0;
    // Stored runs, newest first.
    virtual std::string runs(const std::vector<history::RunRow>& rows,
                             const RenderOptions& options) const = 0;
};

}  // namespace cgbench::report
