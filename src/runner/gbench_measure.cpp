// Measurer::measure_gbench: one Google Benchmark benchmark under Callgrind (see gbench.hpp).

#include <fmt/format.h>

#include "exec/staging.hpp"
#include "runner/gbench.hpp"
#include "runner/measurement.hpp"
#include "runner/measurer.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

// Repetitions per run: the first is cold (caches, first touches of memory); the last is
// reported; the one before it shows whether the loop settles.
constexpr int kRepetitions = 3;

std::vector<std::string> gbench_args(const GbenchTarget& g, const fs::path& report) {
    return {"--benchmark_filter=" + exact_filter(g.benchmark), "--benchmark_min_time=" + g.min_time,
            fmt::format("--benchmark_repetitions={}", kRepetitions),
            "--benchmark_out=" + report.string(), "--benchmark_out_format=json"};
}

std::vector<GbenchRun> read_report(const fs::path& report) {
    std::error_code ec;
    if (!fs::exists(report, ec)) {
        throw UsageError(fmt::format("the benchmark wrote no report ({})", report.string()),
                         "check that the binary accepts --benchmark_out");
    }
    return parse_gbench_report(util::read_file(report));
}

}  // namespace

BenchmarkResult Measurer::measure_gbench(const BenchmarkSpec& spec, int attempt) {
    BenchmarkResult result = start_result(spec, valgrind::Tool::Callgrind);
    const exec::OutputDir staging;
    const fs::path report = staging.path() / "gbench.json";
    const auto options = measurement_for(spec, settings_, inst_).options(settings_);
    const RawOutput raw =
        launch(spec, options, gbench_args(*spec.gbench, report), staging.path(), result, attempt);
    keep_raw(spec, attempt, raw, result, {report});  // the library's report: NAME.gbench.json
    if (result.status != BenchStatus::Ok) return result;
    const auto parts = parse_output(
        [&] { return valgrind::parse_callgrind_parts(raw.out_file(), {.collect_functions = true}); });
    const auto found =
        measured_loop(spec.gbench->benchmark, read_report(report), select_loops(parts));
    if (!found.error.empty()) {
        result.status = BenchStatus::Failed;
        result.error = found.error;
        result.stderr_tail.clear();  // the library's banner, not the cause
        return result;
    }
    result.gbench = found.info;
    result.warnings.insert(result.warnings.end(), found.warnings.begin(), found.warnings.end());
    score(found.profile, result);
    return result;
}

}  // namespace cgbench::runner
