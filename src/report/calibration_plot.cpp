#include "report/calibration_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "calibrate/kernels.hpp"
#include "report/svg.hpp"

namespace cgbench::report {

namespace {

using calibrate::Calibration;

constexpr double kWidth = 760;
constexpr double kHeight = 300;
constexpr double kLeft = 58;
constexpr double kRight = 16;
constexpr double kTop = 16;
constexpr double kBottom = 50;

double slowest(const Calibration& c) {
    double m = 0;
    for (const auto& k : c.kernels)
        m = std::max(m, k.timing.median);
    return m > 0 ? m : 1;
}

// Round steps (1, 2 or 5 times a power of ten) from 0 to at least `hi`.
std::vector<double> linear_ticks(double hi) {
    const double raw = hi / 4;
    const double power = std::pow(10, std::floor(std::log10(raw)));
    double step = power;
    for (const double f : {1.0, 2.0, 5.0, 10.0}) {
        step = f * power;
        if (step >= raw) break;
    }
    std::vector<double> out;
    for (double v = 0; v < hi + step * 0.999; v += step)
        out.push_back(v);
    return out;
}

std::string tick_label(double v) {
    if (v == 0) return "0";
    return v >= 1 ? fmt::format("{:g}", v) : fmt::format("{:.3g}", v);
}

// The frame: ticks, grid, axis captions.
void axes(svg::Canvas& c, const std::vector<double>& yticks, double (*to_y)(double, double),
          double ymax, std::string_view y_caption, std::string_view x_caption) {
    for (const double v : yticks) {
        const double y = to_y(v, ymax);
        c.line({kLeft, y}, {kWidth - kRight, y}, "grid");
        c.text({kLeft - 6, y + 4}, tick_label(v), "tick", svg::Anchor::End);
    }
    c.line({kLeft, kHeight - kBottom}, {kWidth - kRight, kHeight - kBottom}, "axis");
    c.line({kLeft, kTop}, {kLeft, kHeight - kBottom}, "axis");
    c.text({14, (kTop + kHeight - kBottom) / 2}, y_caption, "caption", svg::Anchor::Middle, -90);
    c.text({(kLeft + kWidth - kRight) / 2, kHeight - 8}, x_caption, "caption", svg::Anchor::Middle);
}

double linear_y(double v, double ymax) {
    return kHeight - kBottom - (kHeight - kBottom - kTop) * v / ymax;
}

std::string point_title(const calibrate::KernelResult& k, std::string_view series, double rel) {
    return fmt::format("{} · {}: {:.3f} of the slowest", k.kernel.name, series, rel);
}

}  // namespace

std::string walk_chart(const Calibration& c, std::string_view family) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < c.kernels.size(); ++i) {
        if (c.kernels[i].kernel.family == family && c.kernels[i].kernel.working_set) {
            rows.push_back(i);
        }
    }
    if (rows.size() < 2) return "";
    std::sort(rows.begin(), rows.end(), [&](auto a, auto b) {
        return *c.kernels[a].kernel.working_set < *c.kernels[b].kernel.working_set;
    });
    const double norm = slowest(c);
    double ymax = 0;
    for (const auto i : rows) {
        ymax = std::max(ymax, c.kernels[i].timing.median / norm);
        for (const auto& s : c.sets)
            ymax = std::max(ymax, s.agreement.predicted[i] / norm);
    }
    const auto yticks = linear_ticks(ymax);
    ymax = yticks.back();
    const double lo = std::log2(static_cast<double>(*c.kernels[rows.front()].kernel.working_set));
    const double hi = std::log2(static_cast<double>(*c.kernels[rows.back()].kernel.working_set));
    const auto x_of = [&](std::size_t i) {
        const double v = std::log2(static_cast<double>(*c.kernels[i].kernel.working_set));
        return kLeft + 12 + (kWidth - kRight - kLeft - 24) * (hi > lo ? (v - lo) / (hi - lo) : 0.5);
    };
    svg::Canvas canvas(kWidth, kHeight, "chart",
                       fmt::format("{}: measured and predicted time by working set", family));
    axes(canvas, yticks, linear_y, ymax, "time ÷ slowest kernel's",
         "working set (bytes, log scale)");
    for (const auto i : rows) {
        canvas.text({x_of(i), kHeight - kBottom + 16},
                    calibrate::size_label(*c.kernels[i].kernel.working_set), "tick",
                    svg::Anchor::Middle);
    }
    const auto series = [&](const std::string& cls, std::string_view name, auto value) {
        std::vector<svg::Point> points;
        for (const auto i : rows)
            points.push_back({x_of(i), linear_y(value(i) / norm, ymax)});
        canvas.polyline(points, "line " + cls);
        for (std::size_t p = 0; p < rows.size(); ++p) {
            canvas.circle(points[p], 3, "dot " + cls,
                          point_title(c.kernels[rows[p]], name, value(rows[p]) / norm));
        }
    };
    for (std::size_t s = 0; s < c.sets.size(); ++s) {
        series(fmt::format("w{}", s), c.sets[s].name,
               [&](std::size_t i) { return c.sets[s].agreement.predicted[i]; });
    }
    series("m", "measured", [&](std::size_t i) { return c.kernels[i].timing.median; });
    return canvas.str();
}

namespace {

// Predicted (y) against measured (x) time of `rows`, relative to `norm`, log-log; `predicted`
// gives set s's prediction for row i.
template <typename Predicted>
std::string scatter(const Calibration& c, const std::vector<calibrate::KernelResult>& rows,
                    Predicted predicted, double norm, std::string_view title,
                    std::string_view x_caption) {
    double lo = 1, hi = 1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        lo = std::min(lo, rows[i].timing.median / norm);
        hi = std::max(hi, rows[i].timing.median / norm);
        for (std::size_t s = 0; s < c.sets.size(); ++s) {
            const double p = predicted(s, i) / norm;
            if (p > 0) lo = std::min(lo, p);
            hi = std::max(hi, p);
        }
    }
    const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
    const double span = std::max(1.0, l1 - l0);
    const double side = kHeight - kBottom - kTop;
    // Values below the lowest decade shown (a kernel predicted at 0) sit on the axis.
    const auto pos = [&](double v) {
        return (std::log10(std::max(v, std::pow(10, l0))) - l0) / span * side;
    };
    svg::Canvas canvas(kWidth, kHeight, "chart", std::string(title));
    const double x0 = kLeft + 100;
    const auto px = [&](double v) { return x0 + pos(v); };
    const auto py = [&](double v) { return kHeight - kBottom - pos(v); };
    for (double e = l0; e <= l1 + 0.5; ++e) {
        const double v = std::pow(10, e);
        canvas.line({px(v), kTop}, {px(v), kHeight - kBottom}, "grid");
        canvas.line({x0, py(v)}, {x0 + side, py(v)}, "grid");
        canvas.text({px(v), kHeight - kBottom + 16}, tick_label(v), "tick", svg::Anchor::Middle);
        canvas.text({x0 - 6, py(v) + 4}, tick_label(v), "tick", svg::Anchor::End);
    }
    canvas.line({px(std::pow(10, l0)), py(std::pow(10, l0))},
                {px(std::pow(10, l0 + span)), py(std::pow(10, l0 + span))}, "diagonal",
                "predicted = measured");
    canvas.text({x0 - 40, (kTop + kHeight - kBottom) / 2}, "predicted", "caption",
                svg::Anchor::Middle, -90);
    canvas.text({x0 + side / 2, kHeight - 8}, x_caption, "caption", svg::Anchor::Middle);
    for (std::size_t s = 0; s < c.sets.size(); ++s) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const double m = rows[i].timing.median / norm;
            const double p = predicted(s, i) / norm;
            canvas.circle({px(m), py(p)}, 3, fmt::format("dot w{}", s),
                          fmt::format("{} · {}: predicted {:.3f}, measured {:.3f}",
                                      rows[i].kernel.name, c.sets[s].name, p, m));
        }
    }
    return canvas.str();
}

}  // namespace

std::string scatter_chart(const Calibration& c) {
    return scatter(
        c, c.kernels,
        [&](std::size_t s, std::size_t i) { return c.sets[s].agreement.predicted[i]; }, slowest(c),
        "predicted against measured time, every kernel",
        "measured (÷ slowest kernel's, log scale)");
}

std::string programs_chart(const Calibration& c) {
    if (c.programs.empty()) return "";
    double norm = 0;
    for (const auto& p : c.programs)
        norm = std::max(norm, p.timing.median);
    return scatter(
        c, c.programs,
        [&](std::size_t s, std::size_t i) { return c.sets[s].programs->predicted[i]; },
        norm > 0 ? norm : 1, "predicted against measured time, every held-out program",
        "measured (÷ slowest program's, log scale)");
}

}  // namespace cgbench::report
