// CallgrindRegions and CachegrindRegions: the regions a program marks with
// include/cgbench/cgbench.h, one result each (see regions.hpp).

#include <fmt/format.h>

#include "exec/staging.hpp"
#include "runner/function_costs.hpp"
#include "runner/measurement.hpp"
#include "runner/regions.hpp"
#include "util/strings.hpp"

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
std::vector<BenchmarkResult> failed_regions(BenchmarkResult whole, std::string why) {
    whole.status = BenchStatus::Failed;
    whole.error = std::move(why);
    return {std::move(whole)};
}

// The result of a region run whose regions `found` attributes (or whose markers broke).
std::vector<BenchmarkResult> callgrind_region_results(BenchmarkResult whole,
                                                      const BenchmarkSpec& spec,
                                                      const RegionAttribution& found) {
    if (!found.error.empty()) return failed_regions(std::move(whole), found.error);
    if (found.regions.empty()) return failed_regions(std::move(whole), std::string(kNoRegion));
    std::vector<BenchmarkResult> results;
    for (const auto& region : found.regions) {
        results.push_back(region_result(whole, spec, region));
        score(region.profile, whole.weights, results.back());
    }
    return results;
}

// Regions of a program that wrote no marker under Cachegrind: measured with Callgrind,
// and warned about when it has regions (an older header).
std::vector<BenchmarkResult> measure_regions_unmarked(Launcher& launcher, const BenchmarkSpec& spec,
                                                      int attempt) {
    BenchmarkSpec again = spec;
    again.warmup = 0;  // done by the run that found no marker
    auto results = CallgrindRegions().measure(launcher, again, attempt);
    if (!results.front().region) return results;  // no region at all, or a failure
    for (auto& r : results) {
        r.warnings.push_back(
            "its Valgrind log holds no region marker, so it was built against an older "
            "<cgbench/cgbench.h>, which writes none: measured with Callgrind; rebuild it to "
            "measure with Cachegrind");
    }
    return results;
}

// The Cachegrind region runs of one spec: CGBENCH_REGION selects the region a run measures.
class RegionRuns {
  public:
    RegionRuns(Launcher& launcher, const BenchmarkSpec& spec, int attempt)
        : launcher_(launcher),
          spec_(spec),
          attempt_(attempt),
          options_(CachegrindRegions().options(launcher.settings())) {}

    // The first run, which measures the first region begun into `first` and reads the
    // markers into `log`; false when it failed.
    bool first_run(BenchmarkResult& first, valgrind::ProcessLog& log) {
        const exec::OutputDir staging;
        const Run run = launch("", true, staging.path(), first);
        if (first.status == BenchStatus::Ok) {
            log = launcher_.log(run);
            if (log.region_marks.empty()) return true;  // an older header: nothing to score
            score_run(run, first);
            mark_threads(launcher_.processes(run), {}, first);
        }
        BenchmarkSpec named = spec_;
        if (!log.region_marks.empty()) named.name += "/" + log.region_marks.front().name;
        launcher_.keep_raw(named, attempt_, run, first);
        return first.status == BenchStatus::Ok;
    }

    // A run that measures nothing and logs every marker into `log`; false (and `result`
    // failed) when it failed.
    bool marker_run(BenchmarkResult& result, valgrind::ProcessLog& log) {
        const exec::OutputDir staging;
        const Run run = launch("\n", false, staging.path(), result);
        if (result.status != BenchStatus::Ok) return false;
        log = launcher_.log(run);
        return true;
    }

    // The run of `region` alone, its result made from `first`'s.
    BenchmarkResult region_run(const BenchmarkResult& first, const RegionCost& region) {
        BenchmarkResult r = region_result(first, spec_, region);
        const exec::OutputDir staging;
        const Run run = launch(region.name, false, staging.path(), r);
        if (r.status == BenchStatus::Ok) score_run(run, r);
        BenchmarkSpec named = spec_;
        named.name = r.name;
        launcher_.keep_raw(named, attempt_, run, r);
        return r;
    }

  private:
    // One run with CGBENCH_REGION set to `region` ("": the first region begun; "\n": none,
    // only the markers); the native warm-up only when `warm_up`.
    Run launch(const std::string& region, bool warm_up, const fs::path& staging,
               BenchmarkResult& result) {
        BenchmarkSpec run = spec_;
        run.env.push_back({std::string(exec::kRegionVariable), region});
        if (!warm_up) run.warmup = 0;
        return launcher_.launch(run, {options_, {}, staging}, result, attempt_);
    }
    // Scores a region run's profile (the started process's) into `result`.
    void score_run(const Run& run, BenchmarkResult& result) const {
        const auto& weights = launcher_.settings().weights;
        score(launcher_.profile(run, top_function_options(weights)), weights, result);
    }

    Launcher& launcher_;
    const BenchmarkSpec& spec_;
    int attempt_;
    valgrind::ToolOptions options_;
};

// The result of each of the regions `found` (the first measured by `first`'s run), or one
// failed result named after `spec` at the first region that failed.
std::vector<BenchmarkResult> cachegrind_region_results(RegionRuns& runs, const BenchmarkSpec& spec,
                                                       const BenchmarkResult& first,
                                                       const RegionAttribution& found) {
    std::vector<BenchmarkResult> results;
    for (std::size_t i = 0; i < found.regions.size(); ++i) {
        const RegionCost& region = found.regions[i];
        BenchmarkResult r =
            i == 0 ? region_result(first, spec, region) : runs.region_run(first, region);
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

}  // namespace

valgrind::ToolOptions CallgrindRegions::options(const MeasureSettings& settings) const {
    return tool_options(settings, valgrind::Tool::Callgrind);
}

std::vector<BenchmarkResult> CallgrindRegions::measure(Launcher& launcher,
                                                       const BenchmarkSpec& spec,
                                                       int attempt) const {
    BenchmarkResult whole = start_result(spec, valgrind::Tool::Callgrind, launcher.settings());
    const exec::OutputDir staging;
    const Run run =
        launcher.launch(spec, {options(launcher.settings()), {}, staging.path()}, whole, attempt);
    launcher.keep_raw(spec, attempt, run, whole);
    if (whole.status != BenchStatus::Ok) return {whole};
    const RegionAttribution found =
        attribute_regions(launcher.profile_parts(run, {.collect_functions = true}));
    whole.stderr_tail.clear();
    if (found.error.empty() && !found.regions.empty())
        mark_threads(launcher.processes(run), {}, whole);
    return callgrind_region_results(std::move(whole), spec, found);
}

valgrind::ToolOptions CachegrindRegions::options(const MeasureSettings& settings) const {
    auto o = tool_options(settings, valgrind::Tool::Cachegrind);
    o.instr_at_start = false;
    return o;
}

std::vector<BenchmarkResult> CachegrindRegions::measure(Launcher& launcher,
                                                        const BenchmarkSpec& spec,
                                                        int attempt) const {
    RegionRuns runs(launcher, spec, attempt);
    // The first run measures the first region begun and logs every marker outside it.
    BenchmarkResult first = start_result(spec, valgrind::Tool::Cachegrind, launcher.settings());
    valgrind::ProcessLog log;
    if (!runs.first_run(first, log)) return {first};
    if (log.region_marks.empty()) return measure_regions_unmarked(launcher, spec, attempt);
    // Regions nested in the first one wrote no markers: a run that instruments nothing
    // (CGBENCH_REGION is a newline, which no region's name is) writes them all.
    BenchmarkResult whole = start_result(spec, valgrind::Tool::Cachegrind, launcher.settings());
    if (log.regions_nested && !runs.marker_run(whole, log)) return {whole};
    const RegionAttribution found = regions_of(log.region_marks);
    if (!found.error.empty()) return failed_regions(std::move(whole), found.error);
    return cachegrind_region_results(runs, spec, first, found);
}

}  // namespace cgbench::runner
