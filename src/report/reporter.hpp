#pragma once
// Reporters turn a model into text. One per output format, each a pure serializer: no I/O,
// no decisions about exit codes. formats.hpp says which format has which reporter.

#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cgbench::compare {
struct Comparison;
}

namespace cgbench::report {

struct RenderOptions {
    bool color = false;    // ANSI colours (console only; off when NO_COLOR is set)
    bool verbose = false;  // every event, not just the summary columns
};

// Renders the result of `cgbench run`.
class RunReporter {
  public:
    virtual ~RunReporter() = default;
    virtual std::string render(const RunResult& run, const RenderOptions& options) const = 0;
};

// Renders the result of `cgbench compare` (a model computed by compare::compare_runs).
class CompareReporter {
  public:
    virtual ~CompareReporter() = default;
    virtual std::string render(const compare::Comparison& comparison,
                               const RenderOptions& options) const = 0;
};

}  // namespace cgbench::report
