// The fit of `cgbench calibrate`: weights are recovered from synthetic timings made with known
// weights, stay non-negative, and the agreement figures follow their textbook definitions.

#include "calibrate/fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace cgbench::calibrate {

namespace {

// Hit counts shaped like a sweep: many L1 hits everywhere, LL and RAM hits from none to many.
Matrix sweep_features(std::size_t rows, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> l1(2e7, 6e7), ll(0, 8e6), ram(0, 4e6);
    Matrix m;
    for (std::size_t i = 0; i < rows; ++i) {
        const bool ram_free = i % 3 == 0;  // kernels whose data fits the last-level cache
        m.push_back({l1(rng), ll(rng), ram_free ? 0.0 : ram(rng)});
    }
    return m;
}

// Times from `weights` (seconds per hit), each multiplied by 1 + a uniform error of at most
// `noise`.
std::vector<double> times(const Matrix& f, const std::vector<double>& weights, double noise,
                          unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> err(-noise, noise);
    std::vector<double> t;
    for (const auto& row : f)
        t.push_back(std::inner_product(row.begin(), row.end(), weights.begin(), 0.0) *
                    (1 + err(rng)));
    return t;
}

void expect_within(const std::vector<double>& got, const std::vector<double>& want,
                   double tolerance) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (want[i] == 0) {
            EXPECT_NEAR(got[i], 0, 1e-12) << "weight " << i;
        } else {
            EXPECT_NEAR(got[i] / want[i], 1, tolerance) << "weight " << i << ": " << got[i];
        }
    }
}

}  // namespace

TEST(CalibrateFit, RecoversKnownWeightsFromExactTimes) {
    const std::vector<double> truth = {0.25e-9, 0.25e-9 * 3.7, 0.25e-9 * 48.2};
    const auto f = sweep_features(40, 1);
    expect_within(fit_relative(f, times(f, truth, 0, 2)), truth, 1e-9);
}

TEST(CalibrateFit, TheAbsoluteObjectiveRecoversThemToo) {
    const std::vector<double> truth = {0.25e-9, 0.25e-9 * 3.7, 0.25e-9 * 48.2};
    const auto f = sweep_features(40, 1);
    expect_within(fit_weights(f, times(f, truth, 0, 2), Objective::Absolute), truth, 1e-9);
    expect_within(fit_weights(f, times(f, truth, 0.002, 3), Objective::Absolute), truth, 0.01);
}

TEST(CalibrateFit, RecoversKnownWeightsWithinOnePercentFromNoisyTimes) {
    const std::vector<double> truth = {1.0, 6.0, 80.0};
    const auto f = sweep_features(60, 3);
    for (unsigned seed = 10; seed < 20; ++seed)
        expect_within(fit_relative(f, times(f, truth, 0.002, seed)), truth, 0.01);
}

// Unconstrained least squares of three columns by the normal equations and Cramer's rule.
std::vector<double> unconstrained(const Matrix& a, const std::vector<double>& b) {
    double m[3][3] = {}, v[3] = {};
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (int r = 0; r < 3; ++r) {
            v[r] += a[i][r] * b[i];
            for (int c = 0; c < 3; ++c)
                m[r][c] += a[i][r] * a[i][c];
        }
    }
    const auto det = [](const double (&x)[3][3]) {
        return x[0][0] * (x[1][1] * x[2][2] - x[1][2] * x[2][1]) -
               x[0][1] * (x[1][0] * x[2][2] - x[1][2] * x[2][0]) +
               x[0][2] * (x[1][0] * x[2][1] - x[1][1] * x[2][0]);
    };
    const double d = det(m);
    std::vector<double> out;
    for (int c = 0; c < 3; ++c) {
        double mc[3][3];
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k)
                mc[r][k] = k == c ? v[r] : m[r][k];
        out.push_back(det(mc) / d);
    }
    return out;
}

TEST(CalibrateFit, AWeightThatIsZeroStaysZeroInsteadOfGoingNegative) {
    // With no LL cost at all, noise pushes an unconstrained fit of LL below zero for some
    // seeds; the fit keeps it at zero and still finds the others.
    const std::vector<double> truth = {1.0, 0.0, 35.0};
    const auto f = sweep_features(40, 4);
    int negative_unconstrained = 0;
    for (unsigned seed = 30; seed < 40; ++seed) {
        const auto t = times(f, truth, 0.01, seed);
        const auto w = fit_relative(f, t);
        for (const double v : w)
            EXPECT_GE(v, 0);
        EXPECT_NEAR(w[0], 1.0, 0.01);
        EXPECT_NEAR(w[2] / 35.0, 1, 0.05);
        Matrix scaled = f;
        for (std::size_t i = 0; i < f.size(); ++i)
            for (auto& v : scaled[i])
                v /= t[i];
        if (unconstrained(scaled, std::vector<double>(f.size(), 1.0))[1] < 0) {
            ++negative_unconstrained;
            EXPECT_EQ(w[1], 0);
        }
    }
    EXPECT_GT(negative_unconstrained, 0) << "no seed exercised the constraint";
}

TEST(CalibrateFit, AColumnWithoutHitsGetsWeightZero) {
    auto f = sweep_features(30, 5);
    for (auto& row : f)
        row[1] = 0;  // no LL hits anywhere
    const std::vector<double> truth = {2.0, 0.0, 50.0};
    expect_within(fit_relative(f, times(f, truth, 0, 6)), truth, 1e-9);
}

TEST(CalibrateFit, NnlsMatchesAHandSolvedProblem) {
    // min (x - 1)^2 + (y + 1)^2 over x, y >= 0 is at (1, 0); unconstrained it is (1, -1).
    const auto x = nnls({{1, 0}, {0, 1}}, {1, -1});
    EXPECT_DOUBLE_EQ(x[0], 1);
    EXPECT_DOUBLE_EQ(x[1], 0);
    EXPECT_THROW(nnls({{1, 0}, {1}}, {1, 1}), std::invalid_argument);
}

TEST(CalibrateFit, AgreementFollowsTheTextbookDefinitions) {
    const std::vector<double> cost = {10, 20, 30, 45};
    const std::vector<double> time = {2.1, 3.9, 6.3, 8.7};
    const auto a = agree(cost, time, Objective::Relative);
    // Pearson r from its definition.
    const double mc = 26.25, mt = 5.25;
    double sct = 0, scc = 0, stt = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        sct += (cost[i] - mc) * (time[i] - mt);
        scc += (cost[i] - mc) * (cost[i] - mc);
        stt += (time[i] - mt) * (time[i] - mt);
    }
    EXPECT_NEAR(a.pearson_r, sct / std::sqrt(scc * stt), 1e-12);
    // The scale minimises the summed squared relative error: its derivative is zero there.
    double derivative = 0;
    for (std::size_t i = 0; i < 4; ++i)
        derivative += (a.scale * cost[i] / time[i] - 1) * cost[i] / time[i];
    EXPECT_NEAR(derivative, 0, 1e-12);
    double ss_res = 0;
    std::vector<double> errors;
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(a.predicted[i], a.scale * cost[i]);
        ss_res += (time[i] - a.predicted[i]) * (time[i] - a.predicted[i]);
        errors.push_back(std::fabs(a.predicted[i] - time[i]) / time[i]);
    }
    EXPECT_NEAR(a.r_squared, 1 - ss_res / stt, 1e-12);
    std::sort(errors.begin(), errors.end());
    EXPECT_NEAR(a.median_abs_error, (errors[1] + errors[2]) / 2, 1e-12);
}

TEST(CalibrateFit, TheAbsoluteScaleMinimisesSquaredErrors) {
    const std::vector<double> cost = {10, 20, 30, 45};
    const std::vector<double> time = {2.1, 3.9, 6.3, 8.7};
    const auto a = agree(cost, time, Objective::Absolute);
    double derivative = 0;
    for (std::size_t i = 0; i < 4; ++i)
        derivative += (a.scale * cost[i] - time[i]) * cost[i];
    EXPECT_NEAR(derivative, 0, 1e-9);
    EXPECT_NE(a.scale, agree(cost, time, Objective::Relative).scale);
    EXPECT_DOUBLE_EQ(a.pearson_r, agree(cost, time, Objective::Relative).pearson_r);
}

TEST(CalibrateFit, ProportionalCostsAgreePerfectly) {
    const auto a = agree({1, 2, 3, 10}, {0.5, 1, 1.5, 5});
    EXPECT_NEAR(a.pearson_r, 1, 1e-12);
    EXPECT_NEAR(a.r_squared, 1, 1e-12);
    EXPECT_NEAR(a.median_abs_error, 0, 1e-12);
    EXPECT_NEAR(a.scale, 0.5, 1e-12);
}

TEST(CalibrateFit, IntegerWeightsAreScaledUntilRoundingMovesNoCost) {
    // LL carries a large share of every row's cost: 2.5 rounded to 3 would move costs by far
    // more than 0.5%, so the weights are doubled first.
    const Matrix heavy_ll = {{1e6, 1e6, 1e3}, {2e6, 5e5, 1e4}, {1e6, 2e6, 0}};
    const auto w = integer_weights(heavy_ll, {0.5, 1.25, 20.0});
    EXPECT_EQ(w, (std::vector<std::uint64_t>{2, 5, 80}));
    // With hardly any LL hits, rounding LL changes nothing that matters: L1 stays 1.
    const Matrix light_ll = {{1e8, 10, 1e3}, {2e8, 20, 1e4}, {1e8, 0, 0}};
    EXPECT_EQ(integer_weights(light_ll, {1.0, 2.5, 40.0}), (std::vector<std::uint64_t>{1, 3, 40}));
    // No weight at all.
    EXPECT_EQ(integer_weights(light_ll, {0, 0, 0}), (std::vector<std::uint64_t>{0, 0, 0}));
}

TEST(CalibrateFit, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

}  // namespace cgbench::calibrate
