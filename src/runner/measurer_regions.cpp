// Measurer::measure_regions_callgrind and measure_regions_cachegrind: the regions a program
// marks with include/cgbench/cgbench.h, one result each (see regions.hpp).

#include <fmt/format.h>

#include "exec/staging.hpp"
#include "runner/function_costs.hpp"
#include "runner/measurement.hpp"
#include "runner/measurer.hpp"
#include "runner/regions.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kNoRegion =
    "reached no region (no CGBENCH_REGION_BEGIN of <cgbench/cgbench.h> ran; without --regions "
    "cgbench measures the whole program)";

// The result of `region` of `spec`, from the result the run had so far.
BenchmarkResult region_result(const BenchmarkResult& whole, const BenchmarkSpec& spec,
                              const RegionCost& region) {
    BenchmarkResult r = whole;
    r.name = spec.name + "/" + region.name;
    r.region = RegionInfo{region.name, region.entries};
    return r;
}

// One failed result named after `spec`, saying `why`.
std::vector<BenchmarkResult> failed(BenchmarkResult whole, std::string why) {
    whole.status = BenchStatus::Failed;
    whole.error = std::move(why);
    return {std::move(whole)};
}

}  // namespace

std::vector<BenchmarkResult> Measurer::measure_regions_callgrind(const BenchmarkSpec& spec,
                                                                 int attempt) {
    BenchmarkResult whole = start_result(spec, valgrind::Tool::Callgrind);
    const exec::OutputDir staging;
    const RawOutput raw = launch(spec, tool_options(settings_, valgrind::Tool::Callgrind), {},
                                 staging.path(), whole, attempt);
    keep_raw(spec, attempt, raw, whole);
    if (whole.status != BenchStatus::Ok) return {whole};
    const auto parts = parse_output(
        [&] { return valgrind::parse_callgrind_parts(raw.out_file(), {.collect_functions = true}); });
    const RegionAttribution found = attribute_regions(parts);
    whole.stderr_tail.clear();
    if (!found.error.empty()) return failed(std::move(whole), found.error);
    if (found.regions.empty()) return failed(std::move(whole), std::string(kNoRegion));
    mark_threads(traced_processes(raw.files, raw.root_pid), {}, whole);
    std::vector<BenchmarkResult> results;
    for (const auto& region : found.regions) {
        results.push_back(region_result(whole, spec, region));
        score(region.profile, results.back());
    }
    return results;
}

std::vector<BenchmarkResult> Measurer::measure_regions_unmarked(const BenchmarkSpec& spec,
                                                                int attempt) {
    BenchmarkSpec again = spec;
    again.warmup = 0;  // done by the run that found no marker
    auto results = measure_regions_callgrind(again, attempt);
    if (!results.front().region) return results;  // no region at all, or a failure
    for (auto& r : results) {
        r.warnings.push_back(
            "its Valgrind log holds no region marker, so it was built against an older "
            "<cgbench/cgbench.h>, which writes none: measured with Callgrind; rebuild it to "
            "measure with Cachegrind");
    }
    return results;
}

Measurer::RawOutput Measurer::launch_region(const BenchmarkSpec& spec, const std::string& region,
                                            bool warm_up, const fs::path& staging,
                                            BenchmarkResult& result, int attempt) {
    BenchmarkSpec run = spec;
    run.env.push_back({std::string(exec::kRegionVariable), region});
    if (!warm_up) run.warmup = 0;
    const auto options = measurement_for(spec, settings_, inst_).options(settings_);
    return launch(run, options, {}, staging, result, attempt);
}

bool Measurer::first_region_run(const BenchmarkSpec& spec, int attempt, BenchmarkResult& first,
                                valgrind::ProcessLog& log) {
    const exec::OutputDir staging;
    const RawOutput raw = launch_region(spec, "", true, staging.path(), first, attempt);
    if (first.status == BenchStatus::Ok) {
        log = valgrind::parse_process_log(util::read_file(raw.log_file()));
        if (log.region_marks.empty()) return true;  // an older header: nothing to score
        score_region_run(raw, first);
        mark_threads(traced_processes(raw.files, raw.root_pid), {}, first);
    }
    BenchmarkSpec named = spec;
    if (!log.region_marks.empty()) named.name += "/" + log.region_marks.front().name;
    keep_raw(named, attempt, raw, first);
    return first.status == BenchStatus::Ok;
}

bool Measurer::marker_run(const BenchmarkSpec& spec, int attempt, BenchmarkResult& result,
                          valgrind::ProcessLog& log) {
    const exec::OutputDir staging;
    const RawOutput raw = launch_region(spec, "\n", false, staging.path(), result, attempt);
    if (result.status != BenchStatus::Ok) return false;
    log = valgrind::parse_process_log(util::read_file(raw.log_file()));
    return true;
}

BenchmarkResult Measurer::region_run(const BenchmarkSpec& spec, const BenchmarkResult& first,
                                     const RegionCost& region, int attempt) {
    BenchmarkResult r = region_result(first, spec, region);
    const exec::OutputDir staging;
    const RawOutput raw = launch_region(spec, region.name, false, staging.path(), r, attempt);
    if (r.status == BenchStatus::Ok) score_region_run(raw, r);
    BenchmarkSpec named = spec;
    named.name = r.name;
    keep_raw(named, attempt, raw, r);
    return r;
}

std::vector<BenchmarkResult> Measurer::measure_regions_cachegrind(const BenchmarkSpec& spec,
                                                                  int attempt) {
    // The first run measures the first region begun and logs every marker outside it.
    BenchmarkResult first = start_result(spec, valgrind::Tool::Cachegrind);
    valgrind::ProcessLog log;
    if (!first_region_run(spec, attempt, first, log)) return {first};
    if (log.region_marks.empty()) return measure_regions_unmarked(spec, attempt);
    // Regions nested in the first one wrote no markers: a run that instruments nothing
    // (CGBENCH_REGION is a newline, which no region's name is) writes them all.
    BenchmarkResult whole = start_result(spec, valgrind::Tool::Cachegrind);
    if (log.regions_nested && !marker_run(spec, attempt, whole, log)) return {whole};
    const RegionAttribution found = regions_of(log.region_marks);
    if (!found.error.empty()) return failed(std::move(whole), found.error);
    std::vector<BenchmarkResult> results;
    for (std::size_t i = 0; i < found.regions.size(); ++i) {
        const RegionCost& region = found.regions[i];
        BenchmarkResult r = i == 0 ? region_result(first, spec, region)
                                   : region_run(spec, first, region, attempt);
        if (r.status == BenchStatus::Ok && r.events.get(metrics::Event::Ir) == 0) {
            r.status = BenchStatus::Failed;
            r.error = "was not reached in its own run: the program does not repeat";
        }
        if (r.status != BenchStatus::Ok) {
            // One failed result named after the benchmark, as for the markers' errors.
            r.error = fmt::format("region '{}' {}", util::printable(region.name), r.error);
            r.name = spec.name;
            r.region.reset();
            return {r};
        }
        results.push_back(std::move(r));
    }
    return results;
}

void Measurer::score_region_run(const RawOutput& raw, BenchmarkResult& result) const {
    valgrind::ParseOptions options = top_function_options(settings_.weights);
    options.cmd_lines = raw.cmd_lines;
    score(parse_output([&] { return valgrind::parse_cachegrind_file(raw.out_file(), options); }),
          result);
}

}  // namespace cgbench::runner
