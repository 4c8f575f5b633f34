#pragma once
// `cgbench calibrate` options, from raw command-line input to a validated plan (before
// anything runs), and running the plan: native timings, the noise check, Cachegrind, the fit.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "config/weights_file.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "runner/run_pipeline.hpp"

namespace cgbench::calibrate {

// What the command line said, unvalidated (CLI11 fills this).
struct CalibrateInput {
    std::optional<std::string> suite;
    std::optional<std::string> filter;
    std::optional<std::string> programs;  // a suite of held-out programs (never fitted on)
    std::optional<std::string> sizes;
    std::uint64_t steps = 1ULL << 21;
    int rounds = 3;
    int repeat = 5;
    std::optional<std::string> cpu;  // a CPU number or "none"
    std::string clock = "auto";      // auto, cycles, cpu, wall
    std::string max_noise = "2%";
    bool ir_term = false;
    bool branch_sim = false;
    std::optional<std::string> l2;       // SIZE,ASSOC,LINE of an L2 for a second geometry run
    std::string objective = "absolute";  // absolute or relative
    std::optional<std::string> geometry;
    std::optional<std::string> cpu_baseline;
    std::optional<std::string> jobs;
    std::optional<std::string> timeout;
    std::optional<std::string> keep_raw;  // Valgrind's output files kept here
    std::optional<std::string> out;       // the weights file
    std::optional<std::string> html;
    std::optional<std::string> json;    // the JSON document, written to a file
    std::optional<std::string> format;  // stdout's; the command checks it against report's formats
};

enum class ClockChoice { Auto, Cycles, Cpu, Wall };

struct CalibrationPlan {
    std::vector<Kernel> kernels;        // the sweep: built-in kernels and --suite's benchmarks
    std::vector<Kernel> programs;       // --programs' benchmarks, held out of the fit
    std::vector<std::string> left_out;  // suite benchmarks calibration cannot use, and why
    std::uint64_t steps = 0;
    NativeOptions native;  // native.clock is decided by the probe
    ClockChoice clock = ClockChoice::Auto;
    std::optional<int> cpu;  // pin native runs here; nullopt: do not pin
    double max_noise = 0.02;
    bool ir_term = false;
    // The L2 of --l2: each kernel runs a second time with it as LL, which tells the L1 misses
    // an L2 serves from those only LL serves.
    std::optional<valgrind::CacheSpec> l2;
    Objective objective = Objective::Absolute;
    runner::RunRequest simulated;  // settings (branch_sim too), jobs, probe cache
    std::optional<std::filesystem::path> out;
    std::optional<std::filesystem::path> html;
    std::optional<std::filesystem::path> json_file;
};

// Validates everything; throws UsageError naming the option and the fix. The settings are
// layered as for `cgbench run` (built-in < the suite's [defaults] < CGBENCH_* < command line).
CalibrationPlan plan_calibration(const CalibrateInput& input, const exec::EnvMap& env);

// "2%", "0.5%" or "2" (percent) as a fraction; UsageError otherwise.
double parse_percent(std::string_view text, std::string_view option);

// Where run_calibration reports progress: a sink per phase ("native", "valgrind") with the
// number of steps it will see. The timer replaces the real one (cgbench-kernels) when set:
// the seam through which tests inject noise.
struct SessionHooks {
    std::function<std::unique_ptr<runner::ProgressSink>(std::string_view phase, std::size_t total)>
        progress;
    NativeTimer* timer = nullptr;
};

// Probes the clock, times the kernels natively (pinned), refuses when too noisy (TooNoisy),
// runs them under Cachegrind, fits, running every process through `runner`. Throws as the
// steps do.
Calibration run_calibration(const CalibrationPlan& plan, const exec::EnvMap& env,
                            exec::ProcessRunner& runner, const SessionHooks& hooks = {});

// The loop lengths --steps accepts, and the remedy that names them.
inline constexpr std::uint64_t kMinSteps = 1000;
inline constexpr std::uint64_t kMaxSteps = 1ULL << 32;
std::string steps_hint();

// The weights file for `c`: the fitted weights, a comment saying how to use them, and the
// calibration's conditions and agreement in [calibration].
config::WeightsFile weights_file(const Calibration& c);

// The least R² of the fitted weights against the kernels' times for them to be written: below
// it the fit explains less than half of what was timed (too few or too noisy kernels).
inline constexpr double kMinFitRSquared = 0.5;

// Why `c`'s fitted weights are not fit to use ("R² 0.18: ..."), or nullopt: R² below
// kMinFitRSquared, or a weight above metrics::kMaxWeight (which --weights refuses).
std::optional<std::string> unusable_fit(const Calibration& c);

}  // namespace cgbench::calibrate
