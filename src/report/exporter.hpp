#pragma once
// Exporters: a run's results in the formats of tools people already run, so cgbench numbers
// can feed their dashboards and alerts. Pure serializers like the reporters.

#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cgbench::report {

enum class ExportFormat {
    Bencher,                // Bencher Metric Format (BMF) JSON, for `bencher run --adapter json`
    GithubActionBenchmark,  // github-action-benchmark's `customSmallerIsBetter` JSON
    OpenMetrics,            // OpenMetrics text, for GitLab's `artifacts:reports:metrics`
};

// Parses "bencher", "github-action-benchmark" or "openmetrics"; throws UsageError otherwise.
ExportFormat parse_export_format(std::string_view text);

// Renders a run for another tool. Only benchmarks with status ok carry numbers; failed ones
// are left out (count them with skipped()).
class ResultExporter {
  public:
    virtual ~ResultExporter() = default;
    virtual std::string render(const RunResult& run) const = 0;
};

std::unique_ptr<ResultExporter> make_exporter(ExportFormat format);

// How many benchmarks of `run` an exporter leaves out (status not ok).
std::size_t skipped(const RunResult& run);

}  // namespace cgbench::report
