// GbenchBenchmark: one Google Benchmark benchmark under Callgrind (see gbench.hpp).

#include <fmt/format.h>

#include "exec/staging.hpp"
#include "runner/gbench.hpp"
#include "runner/measurement.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

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

valgrind::ToolOptions GbenchBenchmark::options(const MeasureSettings& settings) const {
    auto o = tool_options(settings, valgrind::Tool::Callgrind);
    o.dump_triggers = gbench_dump_args();  // collect from the start, dump around the loop
    return o;
}

std::vector<BenchmarkResult> GbenchBenchmark::measure(Launcher& launcher, const BenchmarkSpec& spec,
                                                      int attempt) const {
    BenchmarkResult result = start_result(spec, valgrind::Tool::Callgrind, launcher.settings());
    const exec::OutputDir staging;
    const fs::path report = staging.path() / "gbench.json";
    const Run run = launcher.launch(
        spec, {options(launcher.settings()), gbench_args(*spec.gbench, report), staging.path()},
        result, attempt);
    launcher.keep_raw(spec, attempt, run, result, {report});  // the library's report
    if (result.status != BenchStatus::Ok) return {result};
    const auto parts = launcher.profile_parts(run, {.collect_functions = true});
    const auto found =
        measured_loop(spec.gbench->benchmark, read_report(report), select_loops(parts));
    if (!found.error.empty()) {
        result.status = BenchStatus::Failed;
        result.error = found.error;
        result.stderr_tail.clear();  // the library's banner, not the cause
        return {result};
    }
    result.gbench = found.info;
    result.warnings.insert(result.warnings.end(), found.warnings.begin(), found.warnings.end());
    score(found.profile, launcher.settings().weights, result);
    return {result};
}

}  // namespace cgbench::runner
