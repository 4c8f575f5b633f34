#pragma once
// Rendering of `cgbench steps`: per branch its epochs (where each fingerprint starts), then
// the events (benchmarks that stepped at one commit) with their label, before -> after,
// change, what moved and the functions that moved most.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/model.hpp"
#include "history/steps.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

// The model `cgbench steps` renders.
struct StepsReport {
    std::string database;                       // where the history was read from
    std::optional<std::string> benchmark;       // `steps NAME`
    const history::History* history = nullptr;  // the runs the steps refer to
    std::vector<history::BranchSteps> branches;
    history::Commits commits;  // subjects of the commits git knows
    bool verbose = false;      // also list wobble steps and blips (counted either way)
};

// Renders a StepsReport (JSON: schema "cgbench-steps/1").
class StepsReporter {
  public:
    virtual ~StepsReporter() = default;
    virtual std::string render(const StepsReport& report, const RenderOptions& options) const = 0;
};

}  // namespace cgbench::report
