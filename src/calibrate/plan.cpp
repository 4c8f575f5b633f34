#include "calibrate/plan.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "base/errors.hpp"
#include "config/run_options.hpp"
#include "core/version.hpp"
#include "exec/process.hpp"
#include "util/fs.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::calibrate {

namespace fs = std::filesystem;

namespace {

ClockChoice parse_clock(const std::string& text) {
    if (text == "auto") return ClockChoice::Auto;
    if (text == "cycles") return ClockChoice::Cycles;
    if (text == "cpu") return ClockChoice::Cpu;
    if (text == "wall") return ClockChoice::Wall;
    throw UsageError(fmt::format("invalid --clock '{}'", util::printable(text)),
                     "use auto (cycles when the CPU's counter is available, else cpu), cycles, "
                     "cpu or wall");
}

// The CPUs this process may run on, as "0-1" or "0,2,5".
std::string allowed_cpus(const cpu_set_t& set) {
    std::vector<std::string> ranges;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &set)) continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            ++last;
        ranges.push_back(last == cpu ? std::to_string(cpu) : fmt::format("{}-{}", cpu, last));
        cpu = last;
    }
    return util::join(ranges, ",");
}

std::optional<int> parse_cpu(const std::optional<std::string>& text) {
    if (!text) return default_cpu();
    if (*text == "none") return std::nullopt;
    const auto n = util::parse_u64(*text);
    if (!n || *n >= CPU_SETSIZE) {
        throw UsageError(fmt::format("invalid --cpu '{}'", util::printable(*text)),
                         "give a CPU number (see nproc) or none");
    }
    // A CPU this process may not use would leave the timings unpinned, not fail.
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && !CPU_ISSET(static_cast<int>(*n), &set)) {
        throw UsageError(fmt::format("invalid --cpu {}: this process may run on CPUs {} only", *n,
                                     allowed_cpus(set)),
                         "give one of them, or none");
    }
    return static_cast<int>(*n);
}

// The run-wide settings and the suite's benchmarks, planned exactly as `cgbench run` plans
// them. Without a suite, `run` would plan one program: the kernels program stands in for
// it (and is dropped), so no ./cgbench.toml is picked up by accident.
config::RunPlan plan_settings(const CalibrateInput& in, const exec::EnvMap& env) {
    config::RunInput r;
    r.suite = in.suite;
    r.filter = in.filter;
    r.branch_sim = in.branch_sim;
    r.geometry = in.geometry;
    r.cpu_baseline = in.cpu_baseline;
    r.jobs = in.jobs;
    r.timeout = in.timeout;
    r.keep_raw = in.keep_raw;
    r.db.disabled = true;
    if (!in.suite) {
        if (in.filter)
            throw UsageError("--filter selects benchmarks of --suite", "add --suite FILE");
        r.command = {"cgbench-kernels"};
    }
    auto plan = config::plan_run(r, env);
    if (!in.suite) {
        plan.request.settings.weights = metrics::parse_weights("pythonspeed");
    }
    return plan;
}

// The whole programs among `run`'s benchmarks, appended to `out` as kernels; the others are
// listed in `p.left_out`. Names must differ from every kernel's.
void add_suite_kernels(CalibrationPlan& p, const config::RunPlan& run, std::vector<Kernel>& out) {
    std::set<std::string> names;
    for (const auto* list : {&p.kernels, &p.programs}) {
        for (const auto& k : *list)
            names.insert(k.name);
    }
    for (const auto& spec : run.request.benchmarks) {
        if (spec.kind != runner::MeasureKind::Program) {
            p.left_out.push_back(fmt::format(
                "'{}' ({}): calibration times whole programs", util::printable(spec.name),
                spec.kind == runner::MeasureKind::Regions ? "regions" : "Google Benchmark"));
            continue;
        }
        if (!names.insert(spec.name).second) {
            throw UsageError(fmt::format("suite benchmark '{}' has the name of another kernel or "
                                         "benchmark",
                                         util::printable(spec.name)),
                             "rename it in the suite file");
        }
        out.push_back(
            {spec.name, &out == &p.programs ? "program" : "suite", std::nullopt, {}, spec});
    }
}

// The benchmarks of --programs, planned as `run` plans a suite; the run-wide settings stay
// the sweep's (the programs are measured exactly as the kernels are).
void add_programs(CalibrationPlan& p, const CalibrateInput& in, const exec::EnvMap& env) {
    config::RunInput r;
    r.suite = in.programs;
    r.db.disabled = true;
    const auto run = config::plan_run(r, env);
    add_suite_kernels(p, run, p.programs);
    if (p.programs.empty()) {
        throw UsageError(fmt::format("--programs {} has no whole program to time", *in.programs),
                         "give a suite with [[bench]] entries (bench/programs/cgbench.toml)");
    }
}

std::optional<valgrind::CacheSpec> parse_l2(const std::optional<std::string>& text,
                                            const valgrind::Geometry& geometry) {
    if (!text) return std::nullopt;
    valgrind::CacheSpec l2;
    try {
        l2 = valgrind::parse_geometry("LL=" + *text).ll;
    } catch (const UsageError& e) {
        throw UsageError(fmt::format("invalid --l2 '{}': {}", util::printable(*text), e.what()),
                         "give SIZE,ASSOC,LINE as Valgrind takes a cache, e.g. 1048576,8,64");
    }
    if (l2.size <= geometry.d1.size || l2.size >= geometry.ll.size) {
        throw UsageError(fmt::format("invalid --l2 '{}': an L2 lies between D1 ({} bytes) and LL "
                                     "({} bytes)",
                                     util::printable(*text), geometry.d1.size, geometry.ll.size),
                         "give the size of this CPU's L2 per core (lscpu), e.g. 1048576,8,64");
    }
    return l2;
}

}  // namespace

std::string steps_hint() {
    return fmt::format("give between {} and {} steps per loop", kMinSteps, kMaxSteps);
}

double parse_percent(std::string_view text, std::string_view option) {
    std::string_view digits = util::trim(text);
    if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
    double v = -1;
    try {
        std::size_t used = 0;
        v = std::stod(std::string(digits), &used);
        if (used != digits.size()) v = -1;
    } catch (const std::exception&) {
        v = -1;
    }
    if (!(v > 0 && v <= 100)) {
        throw UsageError(fmt::format("invalid {} '{}'", option, util::printable(text)),
                         "give a percentage above 0 and at most 100, e.g. 2%");
    }
    return v / 100;
}

CalibrationPlan plan_calibration(const CalibrateInput& in, const exec::EnvMap& env) {
    CalibrationPlan p;
    if (in.steps < kMinSteps || in.steps > kMaxSteps) {
        throw UsageError(fmt::format("invalid --steps {}", in.steps), steps_hint());
    }
    p.steps = in.steps;
    p.native.rounds = in.rounds;
    p.native.repeat = in.repeat;
    p.clock = parse_clock(in.clock);
    p.cpu = parse_cpu(in.cpu);
    p.max_noise = parse_percent(in.max_noise, "--max-noise");
    p.ir_term = in.ir_term;
    if (in.objective != "relative" && in.objective != "absolute") {
        throw UsageError(fmt::format("invalid --objective '{}'", util::printable(in.objective)),
                         "use absolute (least squares on the times: the slowest kernels count "
                         "most) or relative (on relative errors: every kernel counts alike)");
    }
    p.objective = in.objective == "absolute" ? Objective::Absolute : Objective::Relative;
    p.kernels = builtin_kernels(in.sizes ? parse_sizes(*in.sizes) : default_sizes());
    auto run = plan_settings(in, env);
    if (in.suite) add_suite_kernels(p, run, p.kernels);
    if (in.programs) add_programs(p, in, env);
    p.l2 = parse_l2(in.l2, run.request.settings.geometry);
    p.simulated = std::move(run.request);
    p.simulated.benchmarks.clear();
    if (in.out) p.out = *in.out;
    if (in.html) p.html = *in.html;
    if (in.json) p.json_file = *in.json;
    std::set<fs::path> outputs;
    for (const auto& f : {p.out, p.html, p.json_file}) {
        if (f && !outputs.insert(fs::absolute(*f).lexically_normal()).second) {
            throw UsageError(
                fmt::format("--out, --html and --json name the same file {}", f->string()),
                "give each output a file of its own");
        }
    }
    return p;
}

namespace {

Clock choose_clock(ClockChoice choice, const TimerProbe& probe) {
    switch (choice) {
        case ClockChoice::Cycles:
            if (!probe.cycles) {
                throw EnvironmentError(
                    fmt::format("the CPU's cycle counter is not available here: {}",
                                probe.cycles_unavailable),
                    "use --clock cpu (what auto picks then); virtual machines often hide the "
                    "counter, and kernel.perf_event_paranoid above 2 forbids it");
            }
            return Clock::Cycles;
        case ClockChoice::Cpu:
            return Clock::Cpu;
        case ClockChoice::Wall:
            return Clock::Wall;
        case ClockChoice::Auto:
            break;
    }
    return probe.cycles ? Clock::Cycles : Clock::Cpu;
}

std::unique_ptr<runner::ProgressSink> progress_for(const SessionHooks& hooks,
                                                   std::string_view phase, std::size_t total) {
    return hooks.progress ? hooks.progress(phase, total) : nullptr;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

namespace {

// The sweep's kernels, then the held-out programs: timed and simulated as one list, so the
// programs share the sweep's rounds and noise rules.
std::vector<Kernel> all_kernels(const CalibrationPlan& plan) {
    auto all = plan.kernels;
    all.insert(all.end(), plan.programs.begin(), plan.programs.end());
    return all;
}

std::vector<Timing> time_all(const CalibrationPlan& plan, const std::vector<Kernel>& all,
                             CalibrationContext& x, NativeTimer& timer, const SessionHooks& hooks) {
    x.cpus = cpu_count();
    x.load_before = load_average();
    const auto start = std::chrono::steady_clock::now();
    std::vector<Timing> timings;
    {
        const auto progress = progress_for(hooks, "native", all.size() * plan.native.rounds);
        timings = time_kernels(all, x.native, timer, progress.get());
    }
    x.native_seconds = seconds_since(start);
    x.load_after = load_average();
    check_noise(all, timings, plan.max_noise, load_conditions());
    return timings;
}

struct SimulationSetup {
    std::filesystem::path program;  // cgbench-kernels
    const valgrind::Installation& inst;
    exec::ProcessRunner& runner;
    const exec::EnvMap& env;
};

// Every kernel under Cachegrind, and with --l2 a second time with the L2 as LL (no branch
// simulation: only its LL hits are read; --keep-raw keeps its files in DIR/L2).
std::vector<KernelResult> simulate_all(const CalibrationPlan& plan, const std::vector<Kernel>& all,
                                       const std::vector<Timing>& timings, CalibrationContext& x,
                                       const SimulationSetup& s, const SessionHooks& hooks) {
    std::size_t runs = 0;
    for (const auto& k : all)
        runs += k.suite ? 1 : 2;
    const auto start = std::chrono::steady_clock::now();
    const auto simulate = [&](std::string_view phase, const runner::RunRequest& request) {
        const auto progress = progress_for(hooks, phase, runs);
        return simulate_kernels(all, s.program, plan.steps, x.native.warmups, request, s.inst,
                                s.runner, s.env, progress.get());
    };
    const Simulated sim = simulate("valgrind", plan.simulated);
    std::optional<Simulated> l2;
    if (plan.l2) {
        auto request = plan.simulated;
        request.settings.geometry.ll = *plan.l2;
        request.settings.branch_sim = false;
        if (auto& raw = request.settings.keep_raw_dir; !raw.empty()) {
            raw /= "L2";
            util::ensure_writable_dir(raw, "--keep-raw directory");
        }
        l2 = simulate("valgrind (L2)", request);
        x.l2 = plan.l2->arg();
    }
    x.simulated_seconds = seconds_since(start);
    x.fingerprint = sim.fingerprint;
    std::vector<KernelResult> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& n = sim.counts[i];
        out.push_back({all[i], timings[i], n.hits, n.ir, n.mispredicts, n.indirect_mispredicts,
                       std::nullopt});
        if (l2) out.back().l2_hits = l2->counts[i].hits.ll_hits;
    }
    return out;
}

}  // namespace

Calibration run_calibration(const CalibrationPlan& plan, const exec::EnvMap& env,
                            exec::ProcessRunner& runner, const SessionHooks& hooks) {
    CalibrationContext x;
    x.started = util::now_iso8601();
    x.cpu_model = cpu_model();
    x.steps = plan.steps;
    const auto program = locate_kernel_program(env);
    const auto probe = probe_timer(program, plan.cpu, runner);
    x.native = plan.native;
    x.native.clock = choose_clock(plan.clock, probe);
    x.cycles_unavailable = probe.cycles_unavailable;
    x.pinned_cpu = probe.pinned_cpu;
    x.pin_failure = probe.pin_failure;
    // Before any timing: a missing Valgrind fails in milliseconds, not after the native runs.
    const auto inst =
        valgrind::locate_valgrind(env, runner, util::ProbeCache(plan.simulated.probe_cache_dir));

    const auto& settings = plan.simulated.settings;
    KernelProgramTimer real({program, plan.steps, probe.pinned_cpu, settings.cpu_baseline,
                             settings.geometry, std::nullopt},
                            runner, env);
    const auto all = all_kernels(plan);
    const auto timings =
        time_all(plan, all, x, hooks.timer != nullptr ? *hooks.timer : real, hooks);
    auto results = simulate_all(plan, all, timings, x, {program, inst, runner, env}, hooks);
    std::vector<KernelResult> programs(
        results.begin() + static_cast<std::ptrdiff_t>(plan.kernels.size()), results.end());
    results.resize(plan.kernels.size());
    auto c = fit_calibration(std::move(results), plan.ir_term, plan.objective, std::move(programs));
    c.context = std::move(x);
    return c;
}

namespace {

// The fitted set whose weights the calibration proposes (with mispredictions when fitted).
const WeightSet& chosen_set(const Calibration& c) {
    const WeightSet* chosen = nullptr;
    usable_fit(c.sets, &chosen);
    return *chosen;
}

}  // namespace

std::optional<std::string> unusable_fit(const Calibration& c) {
    const auto& a = chosen_set(c).agreement;
    if (!(a.r_squared >= kMinFitRSquared)) {
        return fmt::format(
            "the fitted weights explain little of the times (R² {:.2f}, median "
            "error {:.0f}%; at least R² {:.1f} is needed)",
            a.r_squared, a.median_abs_error * 100, kMinFitRSquared);
    }
    const auto w = c.fitted;
    if (std::max({w.l1, w.ll, w.ram, w.mispredict}) > metrics::kMaxWeight) {
        return fmt::format(
            "a fitted weight is above {} ({}/{}/{}{}): the kernels barely tell the "
            "levels apart",
            util::with_commas(metrics::kMaxWeight), w.l1, w.ll, w.ram,
            w.mispredict > 0 ? fmt::format("/{}", w.mispredict) : "");
    }
    return std::nullopt;
}

config::WeightsFile weights_file(const Calibration& c) {
    config::WeightsFile f;
    f.weights = c.fitted;
    const auto& x = c.context;
    const WeightSet* fitted = nullptr;
    usable_fit(c.sets, &fitted);
    std::string formula = fmt::format("cost = {}*L1 hits + {}*LL hits + {}*RAM hits", c.fitted.l1,
                                      c.fitted.ll, c.fitted.ram);
    if (c.fitted.mispredict > 0) {
        formula += fmt::format(" + {}*mispredicted conditional branches (Bcm, with --branch-sim)",
                               c.fitted.mispredict);
    }
    f.comments = {
        fmt::format("Weights fitted by `cgbench calibrate` on {}, {}.",
                    x.cpu_model.empty() ? std::string("this machine") : x.cpu_model, x.started),
        formula + ".",
        c.fitted.mispredict > 0
            ? "Use them with `cgbench run --branch-sim --weights THIS_FILE`, or weights = "
              "\"THIS_FILE\" and branch_sim = true in a suite's [defaults]."
            : "Use them with `cgbench run --weights THIS_FILE`, or weights = \"THIS_FILE\" in a "
              "suite's [defaults].",
        "[calibration] records how they were measured; cgbench does not read it."};
    f.calibration = {
        {"cgbench", std::string(kVersion)},
        {"started", x.started},
        {"cpu_model", x.cpu_model},
        {"cpus", static_cast<std::int64_t>(x.cpus)},
        {"geometry", x.fingerprint.geometry.describe()},
        {"cpu_baseline", x.fingerprint.cpu_baseline},
        {"branch_sim", std::string(x.fingerprint.branch_sim ? "on" : "off")},
        {"valgrind", x.fingerprint.valgrind_version},
        {"clock", std::string(to_string(x.native.clock))},
        {"objective", std::string(to_string(c.model.objective))},
        {"load_average", x.load_before.value_or(-1)},
        {"kernels", static_cast<std::int64_t>(c.kernels.size())},
        {"exact", c.fitted_exact},
        {"r", fitted->agreement.pearson_r},
        {"r_squared", fitted->agreement.r_squared},
        {"median_abs_error", fitted->agreement.median_abs_error},
        {"r_pythonspeed", c.sets.front().agreement.pearson_r},
    };
    if (fitted->programs) {
        f.calibration.emplace_back("programs", static_cast<std::int64_t>(c.programs.size()));
        f.calibration.emplace_back("r_programs", fitted->programs->pearson_r);
        f.calibration.emplace_back("median_abs_error_programs", fitted->programs->median_abs_error);
    }
    return f;
}

}  // namespace cgbench::calibrate
