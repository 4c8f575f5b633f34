#include "calibrate/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "exec/interrupt.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::calibrate {

namespace {

// The progress sink speaks in benchmarks; a native timing is shown as one.
BenchmarkResult progress_result(const std::string& name, double seconds) {
    BenchmarkResult r;
    r.name = name;
    r.status = BenchStatus::Ok;
    r.wall_seconds = seconds;
    return r;
}

std::string percent(double fraction) {
    return fmt::format("{:.1f}%", fraction * 100);
}

std::uint64_t minus(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : 0;
}

std::uint64_t ir_of(const BenchmarkResult& r) {
    return r.events.has(metrics::Event::Ir) ? r.events.get(metrics::Event::Ir) : 0;
}

Counted counted(const BenchmarkResult& r) {
    Counted c{*r.derived, ir_of(r), metrics::mispredicts(r.events), std::nullopt};
    if (r.events.has(metrics::Event::Bim))
        c.indirect_mispredicts = r.events.get(metrics::Event::Bim);
    return c;
}

// One loop: the run with it minus the run without it.
Counted difference(const Counted& loop, const Counted& setup) {
    Counted d;
    d.hits = {minus(loop.hits.l1_hits, setup.hits.l1_hits),
              minus(loop.hits.ll_hits, setup.hits.ll_hits),
              minus(loop.hits.ram_hits, setup.hits.ram_hits)};
    d.ir = minus(loop.ir, setup.ir);
    if (loop.mispredicts && setup.mispredicts) {
        d.mispredicts = minus(*loop.mispredicts, *setup.mispredicts);
    }
    if (loop.indirect_mispredicts && setup.indirect_mispredicts) {
        d.indirect_mispredicts = minus(*loop.indirect_mispredicts, *setup.indirect_mispredicts);
    }
    return d;
}

[[noreturn]] void throw_failed(const std::vector<const BenchmarkResult*>& failed) {
    std::vector<std::string> parts;
    for (const auto* b : failed)
        parts.push_back(fmt::format("'{}' {}", util::printable(b->name), b->error));
    throw BenchmarkError(
        fmt::format("{} calibration kernel{} failed under Valgrind: {}", failed.size(),
                    failed.size() == 1 ? "" : "s", util::join(parts, "; ")),
        "fix the suite benchmark, or leave --suite out");
}

}  // namespace

std::vector<Timing> time_kernels(const std::vector<Kernel>& kernels, const NativeOptions& options,
                                 NativeTimer& timer, runner::ProgressSink* progress) {
    const std::size_t n = kernels.size();
    std::vector<std::vector<double>> values(n);
    for (int round = 0; round < options.rounds; ++round) {
        for (std::size_t k = 0; k < n; ++k) {
            // Alternate the order, so a machine that speeds up or slows down over the sweep
            // does not always favour the same kernels.
            const std::size_t i = round % 2 == 0 ? k : n - 1 - k;
            const std::size_t index = static_cast<std::size_t>(round) * n + k;
            runner::BenchmarkSpec shown;
            shown.name =
                fmt::format("native {} (round {}/{})", kernels[i].name, round + 1, options.rounds);
            if (progress != nullptr) progress->started(index, shown);
            const auto start = std::chrono::steady_clock::now();
            for (const auto& s : timer.time(kernels[i], options.warmups, options.repeat))
                values[i].push_back(value_on(s, options.clock));
            exec::throw_if_interrupted();
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            if (progress != nullptr) {
                progress->finished(index, {progress_result(shown.name, took.count())});
            }
        }
    }
    std::vector<Timing> out;
    for (auto& v : values)
        out.push_back(summarize(std::move(v)));
    return out;
}

void check_noise(const std::vector<Kernel>& kernels, const std::vector<Timing>& timings,
                 double max_noise, const std::string& conditions) {
    std::vector<std::size_t> noisy;
    for (std::size_t i = 0; i < timings.size(); ++i) {
        if (timings[i].median <= 0 || timings[i].uncertainty > max_noise) noisy.push_back(i);
    }
    if (noisy.empty()) return;
    const auto worst = *std::max_element(noisy.begin(), noisy.end(), [&](auto a, auto b) {
        return timings[a].uncertainty < timings[b].uncertainty;
    });
    const auto& w = timings[worst];
    std::string message;
    if (w.median <= 0) {
        message = fmt::format("native timings of '{}' are zero: its loop is too short to time",
                              util::printable(kernels[worst].name));
    } else {
        message = fmt::format(
            "native timings are too noisy to fit: {} of {} kernels have a median uncertain by "
            "more than ±{} (worst: {} ±{}, single runs spread ±{} over {} runs)",
            noisy.size(), timings.size(), percent(max_noise), util::printable(kernels[worst].name),
            percent(w.uncertainty), percent(w.spread), w.values.size());
    }
    if (!conditions.empty()) message += "; " + conditions;
    throw TooNoisy(message,
                   "calibrate on a quiet machine, as docs/calibrate.md (\"Calibrating on a "
                   "quiet machine\") says; more runs (--rounds, --repeat) narrow the medians, "
                   "--max-noise accepts more",
                   timings);
}

Simulated simulate_kernels(const std::vector<Kernel>& kernels, const std::filesystem::path& program,
                           std::uint64_t steps, int warmups, runner::RunRequest base,
                           const valgrind::Installation& inst, exec::ProcessRunner& runner,
                           const exec::EnvMap& caller, runner::ProgressSink* progress) {
    base.settings.weights = metrics::parse_weights("pythonspeed");  // cache simulation on
    base.verify = 1;
    base.benchmarks.clear();
    std::vector<std::size_t> loop_at, setup_at;  // indices into the results
    for (const auto& k : kernels) {
        loop_at.push_back(base.benchmarks.size());
        if (k.suite) {
            base.benchmarks.push_back(*k.suite);
            setup_at.push_back(base.benchmarks.size());  // none
            continue;
        }
        for (const int reps : {1, 0}) {
            runner::BenchmarkSpec spec;
            spec.name = reps == 1 ? k.name : k.name + " (setup)";
            spec.command = {program.string()};
            const auto args = simulated_args(k, steps, warmups, reps);
            spec.command.insert(spec.command.end(), args.begin(), args.end());
            base.benchmarks.push_back(std::move(spec));
        }
        setup_at.push_back(loop_at.back() + 1);
    }
    const RunResult run = runner::execute_run(base, inst, runner, caller, progress);
    std::vector<const BenchmarkResult*> failed;
    for (const auto& b : run.benchmarks) {
        if (b.status != BenchStatus::Ok || !b.derived) failed.push_back(&b);
    }
    if (!failed.empty()) throw_failed(failed);
    Simulated out;
    out.fingerprint = run.fingerprint;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto loop = counted(run.benchmarks.at(loop_at[i]));
        out.counts.push_back(
            kernels[i].suite ? loop : difference(loop, counted(run.benchmarks.at(setup_at[i]))));
    }
    return out;
}

namespace {

bool all_have(const std::vector<KernelResult>& kernels,
              const std::optional<std::uint64_t> KernelResult::*count) {
    return std::all_of(kernels.begin(), kernels.end(),
                       [&](const KernelResult& k) { return (k.*count).has_value(); });
}

}  // namespace

Calibration fit_calibration(std::vector<KernelResult> kernels, bool ir_term, Objective objective,
                            std::vector<KernelResult> programs) {
    Calibration c;
    c.model.objective = objective;
    c.model.ir_term = ir_term;
    c.model.mispredicts = !kernels.empty() && all_have(kernels, &KernelResult::mispredicts);
    c.model.l2 = !kernels.empty() && all_have(kernels, &KernelResult::l2_hits);
    c.sets = weight_sets(kernels, programs, c.model);
    const WeightSet* chosen = nullptr;
    c.fitted = usable_fit(c.sets, &chosen);
    c.fitted_exact = chosen->exact;
    c.kernels = std::move(kernels);
    c.programs = std::move(programs);
    return c;
}

std::optional<double> load_average() {
    double load[1] = {0};
    if (::getloadavg(load, 1) != 1) return std::nullopt;
    return load[0];
}

unsigned cpu_count() {
    return std::max(1U, std::thread::hardware_concurrency());
}

std::string load_conditions() {
    const auto load = load_average();
    if (!load) return "";
    return fmt::format("load average {:.2f} on {} CPUs", *load, cpu_count());
}

std::string cpu_model() {
    std::string text;
    try {
        text = util::read_file("/proc/cpuinfo");
    } catch (const Error&) {
        return "";
    }
    for (const auto line : util::split(text, '\n')) {
        if (!util::starts_with(line, "model name")) continue;
        const auto colon = line.find(':');
        if (colon != std::string_view::npos) return std::string(util::trim(line.substr(colon + 1)));
    }
    return "";
}

}  // namespace cgbench::calibrate
