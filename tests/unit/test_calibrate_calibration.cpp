// The calibration pipeline without Valgrind: timings through the NativeTimer seam (a steady
// fake, and the same with noise injected), the noise refusal, and the fit of kernels whose
// times were made from known weights.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "calibrate/calibration.hpp"
#include "calibrate/plan.hpp"
#include "config/weights_file.hpp"
#include "util/fs.hpp"

namespace cgbench::calibrate {

namespace {

// Every kernel takes the time its name's index gives, to the nanosecond, every time.
class SteadyTimer : public NativeTimer {
  public:
    std::vector<Sample> time(const Kernel& k, int, int reps) override {
        order.push_back(k.name);
        const double ns = 1e6 * static_cast<double>(1 + std::stoi(k.name.substr(1)));
        return std::vector<Sample>(static_cast<std::size_t>(reps), Sample{std::nullopt, ns, ns});
    }
    std::vector<std::string> order;
};

// Wraps a timer and multiplies each sample of the kernels it names by 1 + a uniform error of
// at most `amplitude`: the seam for injecting noise.
class NoisyTimer : public NativeTimer {
  public:
    NoisyTimer(NativeTimer& inner, double amplitude, std::vector<std::string> targets)
        : inner_(inner), amplitude_(amplitude), targets_(std::move(targets)) {}
    std::vector<Sample> time(const Kernel& k, int warmups, int reps) override {
        auto samples = inner_.time(k, warmups, reps);
        if (std::find(targets_.begin(), targets_.end(), k.name) == targets_.end()) return samples;
        std::uniform_real_distribution<double> err(-amplitude_, amplitude_);
        for (auto& s : samples) {
            const double f = 1 + err(rng_);
            s.cpu_ns *= f;
            s.wall_ns *= f;
        }
        return samples;
    }

  private:
    NativeTimer& inner_;
    double amplitude_;
    std::vector<std::string> targets_;
    std::mt19937_64 rng_{42};
};

std::vector<Kernel> kernels(int n) {
    std::vector<Kernel> out;
    for (int i = 0; i < n; ++i)
        out.push_back(
            {"k" + std::to_string(i), "compute", std::nullopt, {"compute-latency", "0"}, {}});
    return out;
}

NativeOptions options(int rounds, int repeat) {
    NativeOptions o;
    o.rounds = rounds;
    o.repeat = repeat;
    o.clock = Clock::Cpu;
    return o;
}

}  // namespace

TEST(CalibrateCalibration, RoundsAlternateTheOrderAndPoolTheSamples) {
    SteadyTimer timer;
    const auto t = time_kernels(kernels(3), options(3, 4), timer);
    EXPECT_EQ(timer.order,
              (std::vector<std::string>{"k0", "k1", "k2", "k2", "k1", "k0", "k0", "k1", "k2"}));
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[1].values.size(), 12u);
    EXPECT_EQ(t[1].median, 2e6);
    EXPECT_EQ(t[1].spread, 0);
}

TEST(CalibrateCalibration, SteadyTimingsPassTheNoiseCheck) {
    SteadyTimer timer;
    const auto k = kernels(4);
    EXPECT_NO_THROW(check_noise(k, time_kernels(k, options(3, 5), timer), 0.02, "quiet"));
}

TEST(CalibrateCalibration, InjectedNoiseIsRefusedWithExitCode4NamingTheKernel) {
    SteadyTimer steady;
    NoisyTimer noisy(steady, 0.5, {"k2"});
    const auto k = kernels(4);
    const auto timings = time_kernels(k, options(3, 5), noisy);
    try {
        check_noise(k, timings, 0.02, "load average 9.00 on 2 CPUs");
        FAIL() << "not refused";
    } catch (const TooNoisy& e) {
        EXPECT_EQ(e.code(), ExitCode::kEnvironment);
        const std::string what = e.what();
        EXPECT_NE(what.find("1 of 4 kernels"), std::string::npos) << what;
        EXPECT_NE(what.find("worst: k2"), std::string::npos) << what;
        EXPECT_NE(what.find("load average 9.00"), std::string::npos) << what;
        EXPECT_NE(e.hint().find("quiet machine"), std::string::npos);
        EXPECT_EQ(e.timings().size(), 4u);
    }
    // The same noise is accepted when the limit allows it.
    EXPECT_NO_THROW(check_noise(k, timings, 0.5, ""));
}

TEST(CalibrateCalibration, ZeroTimesAreRefused) {
    const auto k = kernels(2);
    EXPECT_THROW(check_noise(k, {summarize({1, 1}), summarize({0, 0})}, 0.5, ""), TooNoisy);
}

namespace {

// Kernels whose times are exactly 0.3 ns * (1 L1 + 4 LL + 60 RAM hits).
std::vector<KernelResult> synthetic_results() {
    std::vector<KernelResult> out;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::uint64_t> l1(10'000'000, 50'000'000), ll(0, 5'000'000),
        ram(0, 3'000'000);
    for (int i = 0; i < 12; ++i) {
        KernelResult r;
        r.kernel = {"k" + std::to_string(i), "walk/random", 1024ULL << i, {"walk-random", "1"}, {}};
        r.hits = {l1(rng), ll(rng), i < 4 ? 0 : ram(rng)};
        r.ir = r.hits.l1_hits / 2 + 1000;
        const double ns =
            0.3 * (static_cast<double>(r.hits.l1_hits) + 4.0 * static_cast<double>(r.hits.ll_hits) +
                   60.0 * static_cast<double>(r.hits.ram_hits));
        r.timing = summarize({ns, ns, ns});
        out.push_back(r);
    }
    return out;
}

}  // namespace

TEST(CalibrateCalibration, FitFindsTheWeightsTheTimesWereMadeWith) {
    const auto c = fit_calibration(synthetic_results(), false);
    EXPECT_EQ(c.fitted.name, "calibrated");
    EXPECT_EQ(c.fitted.l1, 1u);
    EXPECT_EQ(c.fitted.ll, 4u);
    EXPECT_EQ(c.fitted.ram, 60u);
    EXPECT_NEAR(c.fitted_exact[1], 4, 1e-6);
    EXPECT_NEAR(c.fitted_exact[2], 60, 1e-6);
    ASSERT_EQ(c.sets.size(), 3u);
    EXPECT_EQ(c.sets[0].name, "pythonspeed");
    EXPECT_EQ(c.sets[1].name, "kcachegrind");
    EXPECT_EQ(c.sets[2].name, "fitted");
    EXPECT_NEAR(c.sets[2].agreement.pearson_r, 1, 1e-9);
    EXPECT_NEAR(c.sets[2].agreement.median_abs_error, 0, 1e-9);
    EXPECT_LT(c.sets[0].agreement.r_squared, c.sets[2].agreement.r_squared);
    EXPECT_FALSE(c.model.mispredicts);
    EXPECT_EQ(c.fitted.mispredict, 0u);
    for (const auto& s : c.sets)
        EXPECT_FALSE(s.programs) << s.name << ": no programs to test on";
}

TEST(CalibrateCalibration, TheInstructionTermIsShownButNotUsable) {
    const auto c = fit_calibration(synthetic_results(), true);
    ASSERT_EQ(c.sets.size(), 4u);
    EXPECT_EQ(c.sets[3].name, "fitted + Ir");
    EXPECT_FALSE(c.sets[3].usable);
    ASSERT_EQ(c.sets[3].exact.size(), 4u);
    EXPECT_EQ(c.sets[3].terms.back(), Term::Ir);
    EXPECT_NEAR(c.sets[3].exact[3], 0, 1e-6);  // the times have no per-instruction part
    EXPECT_EQ(c.fitted.name, "calibrated");    // what --out writes is still L1/LL/RAM
    EXPECT_EQ(c.fitted.ram, 60u);
}

namespace {

// synthetic_results() with mispredictions that cost 25 L1 hits each, and L2 hits (a part of
// the LL hits) that cost 2 instead of the LL hits' 4, as the times say.
std::vector<KernelResult> branchy_results(bool l2) {
    auto out = synthetic_results();
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<std::uint64_t> m(0, 900'000);
    for (auto& r : out) {
        r.mispredicts = m(rng);
        r.ir = r.hits.l1_hits / 2 + m(rng) * 10;
        if (l2) r.l2_hits = r.hits.ll_hits / 3 + m(rng) % 1000;
        const double l2_hits = static_cast<double>(r.l2_hits.value_or(0));
        const double ns = 0.3 * (static_cast<double>(r.hits.l1_hits) + 2.0 * l2_hits +
                                 4.0 * (static_cast<double>(r.hits.ll_hits) - l2_hits) +
                                 60.0 * static_cast<double>(r.hits.ram_hits) +
                                 25.0 * static_cast<double>(*r.mispredicts));
        r.timing = summarize({ns, ns, ns});
    }
    return out;
}

const WeightSet& set_named(const Calibration& c, const std::string& name) {
    for (const auto& s : c.sets) {
        if (s.name == name) return s;
    }
    throw std::runtime_error("no weight set " + name);
}

}  // namespace

TEST(CalibrateCalibration, MispredictsAreFittedAndWeighedByThePresets) {
    const auto c = fit_calibration(branchy_results(false), false);
    EXPECT_TRUE(c.model.mispredicts);
    std::vector<std::string> names;
    for (const auto& s : c.sets)
        names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{
                         "pythonspeed", "kcachegrind", "fitted", "pythonspeed + mispredicts",
                         "kcachegrind + mispredicts", "fitted + mispredicts"}));
    const auto& preset = set_named(c, "kcachegrind + mispredicts");
    EXPECT_EQ(preset.weights, (std::vector<double>{1, 10, 100, 10}));
    EXPECT_FALSE(preset.fitted);
    const auto& fit = set_named(c, "fitted + mispredicts");
    EXPECT_TRUE(fit.usable);
    EXPECT_EQ(fit.weights, (std::vector<double>{1, 4, 60, 25}));
    EXPECT_NEAR(fit.agreement.pearson_r, 1, 1e-9);
    EXPECT_LT(set_named(c, "fitted").agreement.r_squared, fit.agreement.r_squared);
    // What --out writes: the fit with mispredicts, for runs with --branch-sim.
    EXPECT_EQ(c.fitted, (metrics::Weights{"calibrated", 1, 4, 60, false, 25}));
    EXPECT_EQ(c.fitted_exact.size(), 4u);
    EXPECT_NEAR(c.fitted_exact[3], 25, 1e-6);
}

TEST(CalibrateCalibration, AnL2LevelIsFittedForComparisonOnly) {
    const auto c = fit_calibration(branchy_results(true), true);
    EXPECT_TRUE(c.model.l2);
    const auto& l2 = set_named(c, "fitted + L2");
    EXPECT_FALSE(l2.usable);
    EXPECT_EQ(l2.terms, (std::vector<Term>{Term::L1, Term::L2, Term::LL, Term::Ram}));
    const auto& all = set_named(c, "fitted + all");
    EXPECT_EQ(all.terms, (std::vector<Term>{Term::L1, Term::L2, Term::LL, Term::Ram,
                                            Term::Mispredicts, Term::Ir}));
    // The times were made with L2 hits at 2 and the rest of LL at 4: only the model with both
    // finds it.
    ASSERT_EQ(all.exact.size(), 6u);
    EXPECT_NEAR(all.exact[1], 2, 1e-6);
    EXPECT_NEAR(all.exact[2], 4, 1e-6);
    EXPECT_NEAR(all.exact[4], 25, 1e-6);
    EXPECT_NEAR(all.exact[5], 0, 1e-6);
    EXPECT_NEAR(all.agreement.median_abs_error, 0, 1e-9);
    EXPECT_GT(set_named(c, "fitted + mispredicts").agreement.median_abs_error, 1e-6);
    // What --out writes is still the usable fit, without L2 or Ir.
    EXPECT_EQ(c.fitted.mispredict,
              static_cast<std::uint64_t>(set_named(c, "fitted + mispredicts").weights[3]));
}

TEST(CalibrateCalibration, ProgramsAreTestedOnWithTheSweepsScaleNeverFittedOn) {
    auto sweep = branchy_results(false);
    std::vector<KernelResult> programs(sweep.end() - 4, sweep.end());
    sweep.resize(sweep.size() - 4);
    const auto alone = fit_calibration(sweep, false);
    // Programs that follow the sweep's law are predicted exactly by the right model ...
    const auto c = fit_calibration(sweep, false, Objective::Absolute, programs);
    const auto& fit = set_named(c, "fitted + mispredicts");
    ASSERT_TRUE(fit.programs);
    EXPECT_NEAR(fit.programs->pearson_r, 1, 1e-9);
    EXPECT_NEAR(fit.programs->median_abs_error, 0, 1e-6);
    EXPECT_DOUBLE_EQ(fit.programs->scale, fit.agreement.scale);
    EXPECT_GT(set_named(c, "pythonspeed").programs->median_abs_error, 0.01);
    // ... and programs that do not change nothing that was fitted.
    for (auto& p : programs) {
        p.timing = summarize({p.timing.median * 7, p.timing.median * 7});
    }
    const auto skewed = fit_calibration(sweep, false, Objective::Absolute, programs);
    ASSERT_EQ(skewed.sets.size(), alone.sets.size());
    for (std::size_t i = 0; i < alone.sets.size(); ++i) {
        EXPECT_EQ(skewed.sets[i].weights, alone.sets[i].weights) << alone.sets[i].name;
        EXPECT_DOUBLE_EQ(skewed.sets[i].agreement.scale, alone.sets[i].agreement.scale);
        EXPECT_NEAR(skewed.sets[i].programs->median_abs_error, 6.0 / 7, 0.2) << alone.sets[i].name;
    }
    EXPECT_EQ(skewed.fitted, alone.fitted);
    EXPECT_EQ(skewed.programs.size(), 4u);
    EXPECT_EQ(skewed.kernels.size(), sweep.size());
}

TEST(CalibrateCalibration, TooFewKernelsToFit) {
    auto r = synthetic_results();
    r.resize(2);
    EXPECT_THROW(fit_calibration(r, false), EnvironmentError);
}

TEST(CalibrateCalibration, TheWeightsFileReadsBackAsTheFittedWeights) {
    auto c = fit_calibration(synthetic_results(), false);
    c.context.cpu_model = "Test CPU \"quoted\"\nnew line";
    c.context.started = "2026-11-22T03:15:00Z";
    const util::StagingDir dir;
    const auto path = dir.path() / "weights.toml";
    util::write_file_atomic(path, config::format_weights_file(weights_file(c)));
    const auto w = config::load_weights_file(path);
    EXPECT_EQ(w, c.fitted);
    // With mispredicts, the file holds their weight and says to run with --branch-sim.
    c = fit_calibration(branchy_results(false), false);
    const auto text = config::format_weights_file(weights_file(c));
    util::write_file_atomic(path, text);
    EXPECT_EQ(config::load_weights_file(path), c.fitted);
    EXPECT_NE(text.find("mispredict = 25"), std::string::npos) << text;
    EXPECT_NE(text.find("--branch-sim"), std::string::npos) << text;
}

}  // namespace cgbench::calibrate
