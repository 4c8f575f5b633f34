#pragma once
// Native timings of calibration kernels: what one timed run reports, which clock is used,
// and how repeated runs are summarised (median, spread) and judged too noisy to fit.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::calibrate {

// The clock a calibration compares costs with. Cycles come from the CPU's counter
// (perf_event_open), when the kernel and the hypervisor allow it; CPU time (the thread's or
// the program's user + system time) leaves out the time other processes had the CPU, which
// makes it far steadier than wall time on a shared machine.
enum class Clock { Cycles, Cpu, Wall };

std::string_view to_string(Clock clock);
// "ms" or "Mcycles".
std::string_view unit_of(Clock clock);
// A clock's value in unit_of() units.
double in_units(Clock clock, double value);

// One timed run of a kernel's loop (or of a whole program).
struct Sample {
    std::optional<double> cycles;  // absent without a cycle counter
    double cpu_ns = 0;
    double wall_ns = 0;
};

// The sample's value on `clock`; throws std::logic_error for cycles it does not have.
double value_on(const Sample& sample, Clock clock);

// Parses "sample cycles=C cpu_ns=T wall_ns=W" (C may be "-"); nullopt for any other line.
std::optional<Sample> parse_sample_line(std::string_view line);

// Repeated timings of one kernel on one clock.
struct Timing {
    std::vector<double> values;  // as measured, in clock units (ns or cycles)
    double median = 0;
    // Robust relative standard deviation of one run: 1.4826 * MAD / median (the standard
    // deviation for normally distributed times, unmoved by a few preempted runs).
    double spread = 0;
    // Relative standard error of the median: 1.2533 * spread / sqrt(n).
    double uncertainty = 0;
};

// Summarises `values` (at least one, all positive).
Timing summarize(std::vector<double> values);

}  // namespace cgbench::calibrate
