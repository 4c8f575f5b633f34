// The calibration pipeline without Valgrind: timings through the NativeTimer seam (a steady
// fake, and the same with noise injected), the noise refusal, and the fit of kernels whose
// times were made from known weights.

#include "calibrate/calibration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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
        out.push_back({"k" + std::to_string(i), "compute", std::nullopt, {"compute-latency", "0"}, {}});
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
    EXPECT_EQ(timer.order, (std::vector<std::string>{"k0", "k1", "k2", "k2", "k1", "k0", "k0",
                                                     "k1", "k2"}));
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
        const double ns = 0.3 * (static_cast<double>(r.hits.l1_hits) + 4.0 * static_cast<double>(r.hits.ll_hits) +
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
    EXPECT_TRUE(c.fitted_exact_ir.empty());
}

TEST(CalibrateCalibration, TheInstructionTermIsShownButNotUsable) {
    const auto c = fit_calibration(synthetic_results(), true);
    ASSERT_EQ(c.sets.size(), 4u);
    EXPECT_EQ(c.sets[3].name, "fitted + Ir");
    EXPECT_FALSE(c.sets[3].usable);
    ASSERT_EQ(c.fitted_exact_ir.size(), 4u);
    EXPECT_NEAR(c.fitted_exact_ir[3], 0, 1e-6);  // the times have no per-instruction part
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
}

}  // namespace cgbench::calibrate
