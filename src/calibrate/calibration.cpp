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

metrics::Derived difference(const metrics::Derived& loop, const metrics::Derived& setup) {
    const auto minus = [](std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; };
    return {minus(loop.l1_hits, setup.l1_hits), minus(loop.ll_hits, setup.ll_hits),
            minus(loop.ram_hits, setup.ram_hits)};
}

std::uint64_t ir_of(const BenchmarkResult& r) {
    return r.events.has(metrics::Event::Ir) ? r.events.get(metrics::Event::Ir) : 0;
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
            shown.name = fmt::format("native {} (round {}/{})", kernels[i].name, round + 1,
                                     options.rounds);
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
        const auto& loop = run.benchmarks.at(loop_at[i]);
        if (kernels[i].suite) {
            out.hits.push_back(*loop.derived);
            out.ir.push_back(ir_of(loop));
            continue;
        }
        const auto& setup = run.benchmarks.at(setup_at[i]);
        out.hits.push_back(difference(*loop.derived, *setup.derived));
        const auto ir_loop = ir_of(loop), ir_setup = ir_of(setup);
        out.ir.push_back(ir_loop > ir_setup ? ir_loop - ir_setup : 0);
    }
    return out;
}

namespace {

std::vector<double> features_of(const KernelResult& k, bool with_ir) {
    std::vector<double> row = {static_cast<double>(k.hits.l1_hits),
                               static_cast<double>(k.hits.ll_hits),
                               static_cast<double>(k.hits.ram_hits)};
    if (with_ir) row.push_back(static_cast<double>(k.ir));
    return row;
}

WeightSet weight_set(std::string name, std::vector<double> weights, const Matrix& features,
                     const std::vector<double>& time, Objective objective) {
    WeightSet s;
    s.name = std::move(name);
    s.agreement = agree(costs(features, weights), time, objective);
    s.weights = std::move(weights);
    return s;
}

std::vector<double> relative_to_first(std::vector<double> w) {
    const auto first = std::find_if(w.begin(), w.end(), [](double v) { return v > 0; });
    if (first == w.end()) return w;
    const double unit = *first;
    for (auto& v : w)
        v /= unit;
    return w;
}

}  // namespace

Calibration fit_calibration(std::vector<KernelResult> kernels, bool ir_term, Objective objective) {
    if (kernels.size() < 3) {
        throw EnvironmentError(
            fmt::format("calibration needs at least 3 kernels to fit 3 weights, not {}",
                        kernels.size()),
            "give more working-set sizes with --sizes");
    }
    Matrix features, features_ir;
    std::vector<double> time;
    for (const auto& k : kernels) {
        features.push_back(features_of(k, false));
        features_ir.push_back(features_of(k, true));
        time.push_back(k.timing.median);
    }
    Calibration c;
    c.objective = objective;
    const auto fit = fit_weights(features, time, objective);
    const auto rounded = integer_weights(features, fit);
    if (std::all_of(rounded.begin(), rounded.end(), [](auto v) { return v == 0; })) {
        throw EnvironmentError("no non-negative weights fit the timings: the measured times do "
                               "not grow with any cache level's hits",
                               "check the kernels' timings in the table; calibrate on a quiet "
                               "machine");
    }
    c.fitted = metrics::Weights{"calibrated", rounded[0], rounded[1], rounded[2], false};
    c.fitted_exact = relative_to_first(fit);
    for (const auto& p : metrics::weight_presets()) {
        if (p.weights.instructions_only) continue;
        c.sets.push_back(weight_set(std::string(p.name),
                                    {static_cast<double>(p.weights.l1),
                                     static_cast<double>(p.weights.ll),
                                     static_cast<double>(p.weights.ram)},
                                    features, time, objective));
    }
    c.sets.push_back(weight_set("fitted",
                                {static_cast<double>(rounded[0]), static_cast<double>(rounded[1]),
                                 static_cast<double>(rounded[2])},
                                features, time, objective));
    if (ir_term) {
        c.fitted_exact_ir = relative_to_first(fit_weights(features_ir, time, objective));
        auto set = weight_set("fitted + Ir", c.fitted_exact_ir, features_ir, time, objective);
        set.usable = false;
        c.sets.push_back(std::move(set));
    }
    c.kernels = std::move(kernels);
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
