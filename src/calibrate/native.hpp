#pragma once
// Timing calibration kernels natively. NativeTimer is the seam: the calibration pipeline only
// sees samples, so tests can substitute a timer (or wrap the real one) that injects noise.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/kernels.hpp"
#include "calibrate/timing.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "valgrind/cpu_baseline.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::calibrate {

class NativeTimer {
  public:
    virtual ~NativeTimer() = default;
    // Runs `kernel` natively: `warmups` untimed loops (for a suite benchmark: whole runs),
    // then `reps` timed ones, one sample each. Throws BenchmarkError when the kernel or the
    // program fails, Interrupted on Ctrl-C.
    virtual std::vector<Sample> time(const Kernel& kernel, int warmups, int reps) = 0;
};

// What the machine allows, as cgbench-kernels found it.
struct TimerProbe {
    bool cycles = false;
    std::string cycles_unavailable;  // why not (the error perf_event_open gave)
    std::optional<int> pinned_cpu;   // the CPU native runs are pinned to
    std::string pin_failure;         // why pinning was refused, when it was asked for
};

// Runs `cgbench-kernels probe`. Throws EnvironmentError when the program does not run.
TimerProbe probe_timer(const std::filesystem::path& program, std::optional<int> cpu,
                       exec::ProcessRunner& runner);

// The CPU to pin native runs to by default: the highest-numbered one this process may run on
// (CPU 0 usually takes the most interrupts); nullopt when affinity cannot be read.
std::optional<int> default_cpu();

// How native runs are made, shared by every kernel.
struct NativeSetup {
    std::filesystem::path program;  // cgbench-kernels
    std::uint64_t steps = 0;        // loop length of the built-in kernels
    std::optional<int> cpu;         // pin to this CPU
    // The CPU baseline's glibc tunables, so programs take the code paths they take under
    // Valgrind; cgbench's usual fixed environment otherwise.
    valgrind::CpuBaseline cpu_baseline = valgrind::CpuBaseline::Portable;
    valgrind::Geometry geometry;
    std::optional<double> timeout_seconds;
};

// The real timer: `cgbench-kernels run KERNEL PARAM STEPS WARMUPS REPS --time` for built-in
// kernels, `cgbench-kernels exec WARMUPS REPS -- PROGRAM ARGS` for suite benchmarks, each in
// its own process group through `runner`.
class KernelProgramTimer final : public NativeTimer {
  public:
    KernelProgramTimer(NativeSetup setup, exec::ProcessRunner& runner, exec::EnvMap caller);
    std::vector<Sample> time(const Kernel& kernel, int warmups, int reps) override;

  private:
    exec::ProcessSpec spec_for(const Kernel& kernel, int warmups, int reps) const;

    NativeSetup setup_;
    exec::ProcessRunner& runner_;
    exec::EnvMap caller_;
};

// The arguments of cgbench-kernels that run one loop of `kernel` after `warmups` loops under
// Valgrind (reps = 1) or only its setup and warm-up (reps = 0), with no timer calls.
std::vector<std::string> simulated_args(const Kernel& kernel, std::uint64_t steps, int warmups,
                                        int reps);

}  // namespace cgbench::calibrate
