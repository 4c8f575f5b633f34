#pragma once
// Layout decisions of the report's charts, kept apart from drawing so they can be tested:
// the value axis (honest: relative to a baseline with a minimum span, or from zero) and
// where labels go without overlapping.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cgbench::report {

// How a chart's value axis is chosen (`cgbench report --axis`).
enum class Axis {
    Relative,  // % against the first result of each epoch, at least ±kMinRelativeSpan/2
    Zero,      // the cost itself, from zero
};

// The smallest span (percentage points) of a relative axis: a 0.4% move fills a fifth of the
// plot, not all of it, while a move near the default 1% gate stays visible.
inline constexpr double kMinRelativeSpan = 2.0;

struct AxisRange {
    double lo = 0;
    double hi = 1;
    std::vector<double> ticks;  // from lo to hi, round values
};

// A relative axis (in %) showing 0 and every value of [lo, hi], at least kMinRelativeSpan wide.
AxisRange relative_axis(double lo, double hi);
// A zero-based axis up to at least `hi` (a cost).
AxisRange zero_axis(double hi);

// Round ticks (1, 2 or 5 times a power of ten) from at most `lo` to at least `hi`, about
// `target` intervals; lo < hi.
std::vector<double> round_ticks(double lo, double hi, std::size_t target);

// A label centred at `x` (clamped into the chart) that is `width` wide.
struct LabelBox {
    double x = 0;
    double width = 0;
};

// Rows for `boxes` in order (earlier ones first), none overlapping another of its row by
// less than `gap`: each label's row, or nullopt when no row among `rows` has room. Each box's
// x is clamped so the label stays within [lo, hi].
std::vector<std::optional<std::size_t>> place_labels(std::vector<LabelBox>& boxes, double lo,
                                                     double hi, std::size_t rows, double gap);

// Roughly how wide `text` is at the charts' label size (11 px), generously, in user units.
double label_width(const std::string& text);

// Values placed along one vertical edge (the latest value of each line): moved apart so that
// no two are closer than `spacing`, staying within [top, bottom] as far as possible; returns
// the new positions in the order given.
std::vector<double> spread_apart(const std::vector<double>& ys, double spacing, double top,
                                 double bottom);

}  // namespace cgbench::report
