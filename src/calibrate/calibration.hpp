#pragma once
// `cgbench calibrate` as a pipeline of four steps, each testable on its own:
//   time_kernels      native timings (rounds of warm-up + repeated timed loops, pinned)
//   check_noise       refuses (TooNoisy, exit 4) when a median is too uncertain to fit
//   simulate_kernels  the same loops under Cachegrind: hits of one loop, by difference
//   fit_calibration   the fitted weights and how well each weight set predicts the times, on
//                     the sweep and on held-out programs (model.hpp)
// The CLI strings them together and hands the Calibration to a reporter.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/kernels.hpp"
#include "calibrate/model.hpp"
#include "calibrate/native.hpp"
#include "calibrate/timing.hpp"
#include "core/result.hpp"
#include "metrics/score.hpp"
#include "runner/run_pipeline.hpp"
#include "runner/scheduler.hpp"

namespace cgbench::calibrate {

struct NativeOptions {
    int rounds = 3;   // passes over all kernels, in alternating order
    int repeat = 5;   // timed loops per kernel and round
    int warmups = 1;  // untimed loops first (also under Valgrind)
    Clock clock = Clock::Cpu;
};

// Native timings of each kernel, in the order of the kernels.
std::vector<Timing> time_kernels(const std::vector<Kernel>& kernels, const NativeOptions& options,
                                 NativeTimer& timer, runner::ProgressSink* progress = nullptr);

// Thrown when the timings are too noisy to fit; carries them so the caller can show them.
class TooNoisy : public EnvironmentError {
  public:
    TooNoisy(std::string message, std::string hint, std::vector<Timing> timings)
        : EnvironmentError(std::move(message), std::move(hint)), timings_(std::move(timings)) {}
    const std::vector<Timing>& timings() const noexcept { return timings_; }

  private:
    std::vector<Timing> timings_;
};

// Throws TooNoisy naming the worst kernels when any median's relative uncertainty exceeds
// `max_noise` (a fraction), or when a median is not positive. `conditions` ("load average 3.1
// on 2 CPUs") goes into the message.
void check_noise(const std::vector<Kernel>& kernels, const std::vector<Timing>& timings,
                 double max_noise, const std::string& conditions);

// What Cachegrind counted for one kernel: one loop, or a suite program's whole run.
struct Counted {
    metrics::Derived hits;
    std::uint64_t ir = 0;
    std::optional<std::uint64_t> mispredicts;           // with branch simulation: Bcm
    std::optional<std::uint64_t> indirect_mispredicts;  // and Bim, recorded, not weighed
};

// Cachegrind's view of each kernel.
struct Simulated {
    Fingerprint fingerprint;
    std::vector<Counted> counts;  // per kernel
};

// Runs every kernel under Cachegrind with `base.settings` (cache simulation forced on; branch
// simulation as they say), `base.jobs` at a time: a built-in kernel twice, with and without
// the measured loop after the same setup and `warmups` loops, and the difference is one loop
// (a count that comes out negative is 0); a suite benchmark once, whole. Throws
// BenchmarkError naming the kernels that failed.
Simulated simulate_kernels(const std::vector<Kernel>& kernels, const std::filesystem::path& program,
                           std::uint64_t steps, int warmups, runner::RunRequest base,
                           const valgrind::Installation& inst, exec::ProcessRunner& runner,
                           const exec::EnvMap& caller, runner::ProgressSink* progress = nullptr);

// How and where a calibration was measured, for reports and the weights file.
struct CalibrationContext {
    Fingerprint fingerprint;  // of the Cachegrind runs
    std::string started;      // ISO-8601
    std::string cpu_model;    // "AMD EPYC" (from /proc/cpuinfo), "" when unknown
    NativeOptions native;
    std::uint64_t steps = 0;            // loop length of the built-in kernels
    std::string cycles_unavailable;     // why the clock is not cycles ("" when it is)
    std::optional<int> pinned_cpu;      // the CPU native runs were pinned to
    std::string pin_failure;            // why they were not, when pinning was refused
    std::string l2;                     // the L2 geometry of --l2 ("1048576,8,64"), "" without
    unsigned cpus = 1;                  // online CPUs
    std::optional<double> load_before;  // 1-minute load average before the native runs
    std::optional<double> load_after;   // and after them
    double native_seconds = 0;
    double simulated_seconds = 0;
};

struct Calibration {
    CalibrationContext context;  // filled by the caller
    ModelOptions model;
    std::vector<KernelResult> kernels;   // the sweep: what the weights are fitted on
    std::vector<KernelResult> programs;  // held out (--programs): only tested on
    // In weight_sets' order: pythonspeed, kcachegrind, fitted, then the sets with the terms
    // measured besides (mispredicts, Ir, L2).
    std::vector<WeightSet> sets;
    metrics::Weights fitted;           // what --out writes: integer, named "calibrated"
    std::vector<double> fitted_exact;  // its weights before rounding, relative to the first
};

// Fits non-negative weights to the sweep's median times by least squares (`objective`) and
// compares them with the presets, each scaled by the same objective, on the sweep and on
// `programs`. Mispredicts and L2 hits enter the models when every sweep kernel has them.
// Throws EnvironmentError when fewer than three kernels or no positive weight fits.
Calibration fit_calibration(std::vector<KernelResult> kernels, bool ir_term,
                            Objective objective = Objective::Absolute,
                            std::vector<KernelResult> programs = {});

// The 1-minute load average, when it can be read.
std::optional<double> load_average();

// The number of CPUs online (at least 1).
unsigned cpu_count();

// "load average 3.10 on 2 CPUs", or "" when the load cannot be read.
std::string load_conditions();

// The CPU's model name from /proc/cpuinfo ("AMD EPYC"), or "".
std::string cpu_model();

}  // namespace cgbench::calibrate
