#pragma once
// The numbers of `cgbench calibrate`: non-negative least squares for the weights, and how
// well a set of weights predicts measured times (Pearson r, R², median absolute percentage
// error). Plain doubles, no I/O.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cgbench::calibrate {

// m rows of k features each (every row the same length).
using Matrix = std::vector<std::vector<double>>;

// argmin ||A x - b|| subject to x >= 0. Exact for the few columns calibration has (at most 8):
// the optimum is the unconstrained least-squares solution on its own support, so every support
// is solved (Householder QR on unit-norm columns) and the best feasible one wins. Columns that
// are zero, or dependent on others within a support, are left at 0. Throws std::invalid_argument
// for ragged rows, more than 8 columns, or b of another length.
std::vector<double> nnls(const Matrix& a, const std::vector<double>& b);

// What a fit minimises over the kernels. Absolute: the sum of (predicted - measured)^2, plain
// least squares on the times (or on times relative to the slowest, the same thing), which
// the slowest kernels dominate. Relative: the sum of (predicted / measured - 1)^2, so a
// kernel of 5 ms counts as much as one of 500 ms.
enum class Objective { Absolute, Relative };

std::string_view to_string(Objective objective);

// Weights w >= 0 that minimise `objective` for predicting `time` from `features` (time_i is
// predicted as features_i . w). Times must be positive.
std::vector<double> fit_weights(const Matrix& features, const std::vector<double>& time,
                                Objective objective);

// fit_weights with Objective::Relative.
std::vector<double> fit_relative(const Matrix& features, const std::vector<double>& time);

// How well costs predict times once scaled: `scale` (time units per cost unit) minimises
// `objective`; `predicted` = scale * cost.
struct Agreement {
    double scale = 0;
    double pearson_r = 0;           // of cost and time (scale does not change it)
    double r_squared = 0;           // 1 - SS(time - predicted) / SS(time - mean time)
    double median_abs_error = 0;    // median of |predicted - time| / time, a fraction
    std::vector<double> predicted;  // per kernel, in time units
};

// Compares `cost` (under some weights) with measured `time`, both one value per kernel (at
// least two kernels, times positive).
Agreement agree(const std::vector<double>& cost, const std::vector<double>& time,
                Objective objective = Objective::Absolute);

// The same with a scale given, not fitted: how costs predict times they were not fitted on.
Agreement agree_at(const std::vector<double>& cost, const std::vector<double>& time, double scale);

// The cost of each row of `features` under `weights` (same length as a row).
std::vector<double> costs(const Matrix& features, const std::vector<double>& weights);

// Fitted weights as the integers cgbench's cost takes: divided by the first non-zero weight
// (normally L1, which then reads 1), then multiplied by the smallest integer factor (up to
// 1000) for which rounding moves no row's cost by more than `tolerance` (relative). Returns
// the integer weights, in the same order.
std::vector<std::uint64_t> integer_weights(const Matrix& features,
                                           const std::vector<double>& fitted,
                                           double tolerance = 0.005);

// Median of `values` (not empty); the mean of the middle two for an even count.
double median(std::vector<double> values);

}  // namespace cgbench::calibrate
