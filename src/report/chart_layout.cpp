#include "report/chart_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cgbench::report {

std::vector<double> round_ticks(double lo, double hi, std::size_t target) {
    const double raw = (hi - lo) / static_cast<double>(std::max<std::size_t>(target, 1));
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * magnitude;
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    }
    std::vector<double> ticks;
    const double first = std::floor(lo / step + 1e-9) * step;
    for (int i = 0;; ++i) {
        const double t = first + step * i;
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
        if (t >= hi - step * 1e-9) break;
    }
    return ticks;
}

AxisRange relative_axis(double lo, double hi) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
    if (hi - lo < kMinRelativeSpan) {
        const double mid = (lo + hi) / 2;
        lo = mid - kMinRelativeSpan / 2;
        hi = mid + kMinRelativeSpan / 2;
    }
    AxisRange r;
    r.ticks = round_ticks(lo, hi, 4);
    r.lo = r.ticks.front();
    r.hi = r.ticks.back();
    return r;
}

AxisRange zero_axis(double hi) {
    AxisRange r;
    r.ticks = round_ticks(0, std::max(hi, 1.0), 4);
    r.lo = 0;
    r.hi = r.ticks.back();
    return r;
}

std::vector<std::optional<std::size_t>> place_labels(std::vector<LabelBox>& boxes, double lo,
                                                     double hi, std::size_t rows, double gap) {
    std::vector<std::vector<std::pair<double, double>>> taken(rows);  // per row: [left, right]
    std::vector<std::optional<std::size_t>> out;
    for (auto& b : boxes) {
        b.x = std::clamp(b.x, lo + b.width / 2, std::max(lo + b.width / 2, hi - b.width / 2));
        const double left = b.x - b.width / 2 - gap / 2;
        const double right = b.x + b.width / 2 + gap / 2;
        std::optional<std::size_t> row;
        for (std::size_t r = 0; r < rows && !row; ++r) {
            const bool free = std::none_of(taken[r].begin(), taken[r].end(), [&](const auto& t) {
                return left < t.second && t.first < right;
            });
            if (free) row = r;
        }
        if (row) taken[*row].emplace_back(left, right);
        out.push_back(row);
    }
    return out;
}

double label_width(const std::string& text) {
    return 7.0 * static_cast<double>(text.size()) + 4;
}

std::vector<double> spread_apart(const std::vector<double>& ys, double spacing, double top,
                                 double bottom) {
    std::vector<std::size_t> order(ys.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return ys[a] < ys[b]; });
    std::vector<double> out(ys);
    double next = top;
    for (const auto i : order) {  // downwards
        out[i] = std::max(out[i], next);
        next = out[i] + spacing;
    }
    double limit = bottom;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // then back up from the bottom
        out[*it] = std::min(out[*it], limit);
        limit = out[*it] - spacing;
    }
    return out;
}

}  // namespace cgbench::report
