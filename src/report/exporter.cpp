#include "report/exporter.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

std::unique_ptr<ResultExporter> make_bencher_exporter();
std::unique_ptr<ResultExporter> make_github_benchmark_exporter();
std::unique_ptr<ResultExporter> make_openmetrics_exporter();

ExportFormat parse_export_format(std::string_view text) {
    if (text == "bencher") return ExportFormat::Bencher;
    if (text == "github-action-benchmark") return ExportFormat::GithubActionBenchmark;
    if (text == "openmetrics") return ExportFormat::OpenMetrics;
    throw UsageError(fmt::format("unknown export format '{}'", util::printable(text)),
                     "use --format bencher, github-action-benchmark or openmetrics");
}

std::unique_ptr<ResultExporter> make_exporter(ExportFormat format) {
    switch (format) {
        case ExportFormat::Bencher:
            return make_bencher_exporter();
        case ExportFormat::GithubActionBenchmark:
            return make_github_benchmark_exporter();
        case ExportFormat::OpenMetrics:
            return make_openmetrics_exporter();
    }
    return make_bencher_exporter();
}

std::size_t skipped(const RunResult& run) {
    std::size_t n = 0;
    for (const auto& b : run.benchmarks)
        n += b.status != BenchStatus::Ok;
    return n;
}

}  // namespace cgbench::report
