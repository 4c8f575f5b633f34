#include "calibrate/fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace cgbench::calibrate {

namespace {

constexpr std::size_t kMaxColumns = 8;

// Least squares on the columns `cols` of `a`, or nullopt when one of them is zero or depends
// on the others. Householder QR on columns scaled to unit norm, so hit counts of very
// different magnitudes (1e8 L1 hits, 1e3 RAM hits) are conditioned alike.
std::optional<std::vector<double>> solve_subset(const Matrix& a, const std::vector<double>& b,
                                                const std::vector<std::size_t>& cols) {
    const std::size_t m = a.size();
    const std::size_t p = cols.size();
    if (p > m) return std::nullopt;
    std::vector<std::vector<double>> q(p, std::vector<double>(m));  // column-major copy
    std::vector<double> norms(p);
    for (std::size_t j = 0; j < p; ++j) {
        double s = 0;
        for (std::size_t i = 0; i < m; ++i)
            s += a[i][cols[j]] * a[i][cols[j]];
        norms[j] = std::sqrt(s);
        if (norms[j] == 0) return std::nullopt;
        for (std::size_t i = 0; i < m; ++i)
            q[j][i] = a[i][cols[j]] / norms[j];
    }
    std::vector<double> rhs = b;
    std::vector<double> diag(p);
    for (std::size_t k = 0; k < p; ++k) {
        double s = 0;
        for (std::size_t i = k; i < m; ++i)
            s += q[k][i] * q[k][i];
        const double alpha = q[k][k] > 0 ? -std::sqrt(s) : std::sqrt(s);
        if (std::fabs(alpha) < 1e-10) return std::nullopt;  // dependent column
        diag[k] = alpha;
        q[k][k] -= alpha;  // q[k][k..] is now the Householder vector v
        const double vv = s - 2 * alpha * (q[k][k] + alpha) + alpha * alpha;
        const auto reflect = [&](std::vector<double>& col) {
            double dot = 0;
            for (std::size_t i = k; i < m; ++i)
                dot += q[k][i] * col[i];
            for (std::size_t i = k; i < m; ++i)
                col[i] -= 2 * dot / vv * q[k][i];
        };
        for (std::size_t j = k + 1; j < p; ++j)
            reflect(q[j]);
        reflect(rhs);
    }
    std::vector<double> x(p);
    for (std::size_t k = p; k-- > 0;) {
        double s = rhs[k];
        for (std::size_t j = k + 1; j < p; ++j)
            s -= q[j][k] * x[j];
        x[k] = s / diag[k];
    }
    for (std::size_t j = 0; j < p; ++j)
        x[j] /= norms[j];
    return x;
}

double residual(const Matrix& a, const std::vector<double>& b, const std::vector<double>& x) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double r = std::inner_product(a[i].begin(), a[i].end(), x.begin(), 0.0) - b[i];
        s += r * r;
    }
    return s;
}

}  // namespace

std::vector<double> nnls(const Matrix& a, const std::vector<double>& b) {
    if (a.size() != b.size()) throw std::invalid_argument("nnls: rows and targets differ");
    const std::size_t k = a.empty() ? 0 : a.front().size();
    if (k > kMaxColumns) throw std::invalid_argument("nnls: too many columns");
    for (const auto& row : a) {
        if (row.size() != k) throw std::invalid_argument("nnls: ragged rows");
    }
    std::vector<double> best(k, 0.0);
    double best_residual = residual(a, b, best);
    for (unsigned mask = 1; mask < (1U << k); ++mask) {
        std::vector<std::size_t> cols;
        for (std::size_t j = 0; j < k; ++j) {
            if ((mask >> j) & 1U) cols.push_back(j);
        }
        const auto x = solve_subset(a, b, cols);
        if (!x || std::any_of(x->begin(), x->end(), [](double v) { return v < 0; })) continue;
        std::vector<double> full(k, 0.0);
        for (std::size_t j = 0; j < cols.size(); ++j)
            full[cols[j]] = (*x)[j];
        const double r = residual(a, b, full);
        if (r < best_residual) {
            best_residual = r;
            best = full;
        }
    }
    return best;
}

std::string_view to_string(Objective objective) {
    return objective == Objective::Absolute ? "absolute" : "relative";
}

std::vector<double> fit_weights(const Matrix& features, const std::vector<double>& time,
                                Objective objective) {
    return objective == Objective::Absolute ? nnls(features, time) : fit_relative(features, time);
}

std::vector<double> fit_relative(const Matrix& features, const std::vector<double>& time) {
    Matrix scaled = features;
    for (std::size_t i = 0; i < scaled.size(); ++i) {
        for (auto& v : scaled[i])
            v /= time.at(i);
    }
    return nnls(scaled, std::vector<double>(time.size(), 1.0));
}

std::vector<double> costs(const Matrix& features, const std::vector<double>& weights) {
    std::vector<double> out;
    out.reserve(features.size());
    for (const auto& row : features)
        out.push_back(std::inner_product(row.begin(), row.end(), weights.begin(), 0.0));
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Agreement agree(const std::vector<double>& cost, const std::vector<double>& time,
                Objective objective) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < time.size(); ++i) {
        // Least squares of scale * x against y: relative divides both by the time.
        const double x = objective == Objective::Absolute ? cost[i] : cost[i] / time[i];
        const double y = objective == Objective::Absolute ? time[i] : 1.0;
        num += x * y;
        den += x * x;
    }
    return agree_at(cost, time, den > 0 ? num / den : 0);
}

Agreement agree_at(const std::vector<double>& cost, const std::vector<double>& time, double scale) {
    const std::size_t n = time.size();
    Agreement a;
    a.scale = scale;
    const double mean_t = std::accumulate(time.begin(), time.end(), 0.0) / static_cast<double>(n);
    const double mean_c = std::accumulate(cost.begin(), cost.end(), 0.0) / static_cast<double>(n);
    double sct = 0, scc = 0, stt = 0, ss_res = 0;
    std::vector<double> errors;
    for (std::size_t i = 0; i < n; ++i) {
        const double p = a.scale * cost[i];
        a.predicted.push_back(p);
        sct += (cost[i] - mean_c) * (time[i] - mean_t);
        scc += (cost[i] - mean_c) * (cost[i] - mean_c);
        stt += (time[i] - mean_t) * (time[i] - mean_t);
        ss_res += (time[i] - p) * (time[i] - p);
        errors.push_back(std::fabs(p - time[i]) / time[i]);
    }
    a.pearson_r = scc > 0 && stt > 0 ? sct / std::sqrt(scc * stt) : 0;
    a.r_squared = stt > 0 ? 1 - ss_res / stt : 0;
    a.median_abs_error = errors.empty() ? 0 : median(errors);
    return a;
}

std::vector<std::uint64_t> integer_weights(const Matrix& features,
                                           const std::vector<double>& fitted, double tolerance) {
    const auto first = std::find_if(fitted.begin(), fitted.end(), [](double w) { return w > 0; });
    if (first == fitted.end()) return std::vector<std::uint64_t>(fitted.size(), 0);
    std::vector<double> unit;
    for (const double w : fitted)
        unit.push_back(w / *first);
    const auto exact = costs(features, unit);
    std::vector<std::uint64_t> out(fitted.size());
    for (int factor = 1; factor <= 1000; ++factor) {
        std::vector<double> rounded;
        for (std::size_t j = 0; j < unit.size(); ++j) {
            out[j] = static_cast<std::uint64_t>(std::llround(unit[j] * factor));
            rounded.push_back(static_cast<double>(out[j]) / factor);
        }
        const auto approx = costs(features, rounded);
        bool close = true;
        for (std::size_t i = 0; i < exact.size() && close; ++i) {
            close = exact[i] <= 0 || std::fabs(approx[i] - exact[i]) <= tolerance * exact[i];
        }
        if (close) break;
    }
    return out;
}

}  // namespace cgbench::calibrate
