#include "report/history_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report/svg.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using store::BenchmarkSeries;
using store::KeyedPoint;

constexpr std::size_t kPalette = 6;  // classes k0..k5 in the page's style
constexpr double kWidth = 760;
constexpr double kHeight = 260;
constexpr double kTop = 30;
constexpr double kRight = 20;
constexpr double kBottom = 58;  // two label lines and the axis caption
constexpr double kPad = 16;     // between the axes and the first and last point
constexpr double kCharWidth = 7;
constexpr double kLabelSpacing = 84;

struct Range {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
};

std::optional<Range> cost_range(const BenchmarkSeries& s) {
    std::optional<Range> r;
    for (const auto& k : s.points) {
        if (!k.point.cost) continue;
        const auto c = *k.point.cost;
        r = r ? Range{std::min(r->lo, c), std::max(r->hi, c)} : Range{c, c};
    }
    return r;
}

// Where results and costs go inside the plot area.
struct Frame {
    double left = 0;
    double right = kWidth - kRight;
    double top = kTop;
    double bottom = kHeight - kBottom;
    std::size_t n = 1;
    Range range;

    double x(std::size_t i) const {
        if (n < 2) return (left + right) / 2;
        return left + kPad +
               (right - left - 2 * kPad) * static_cast<double>(i) / static_cast<double>(n - 1);
    }
    double y(std::uint64_t v) const {
        if (range.hi <= range.lo) return (top + bottom) / 2;
        return bottom - (bottom - top) * static_cast<double>(v - range.lo) /
                            static_cast<double>(range.hi - range.lo);
    }
};

bool key_changes_at(const BenchmarkSeries& s, std::size_t i) {
    return i > 0 && s.points[i].fingerprint_key != s.points[i - 1].fingerprint_key;
}

std::string colour_class(const FingerprintColours& colours, std::string_view key) {
    const auto it = colours.find(key);
    return fmt::format("k{}", it == colours.end() ? 0 : it->second % kPalette);
}

// Round ticks around the costs; a flat series gets a band of about 1% around its value.
std::vector<std::uint64_t> cost_ticks(Range r) {
    if (r.lo == r.hi) {
        const std::uint64_t d = std::max<std::uint64_t>(1, r.lo / 100);
        r = {r.lo > d ? r.lo - d : 0, r.hi + d};
    }
    return svg::nice_ticks(r.lo, r.hi, 4);
}

void draw_axes(svg::Canvas& c, const Frame& f, const std::vector<std::uint64_t>& ticks) {
    for (const auto t : ticks) {
        c.line({f.left, f.y(t)}, {f.right, f.y(t)}, "grid");
        c.text({f.left - 6, f.y(t) + 4}, util::with_commas(t), "tick", svg::Anchor::End);
    }
    c.line({f.left, f.top}, {f.left, f.bottom}, "axis");
    c.line({f.left, f.bottom}, {f.right, f.bottom}, "axis");
    c.text({14, (f.top + f.bottom) / 2}, "cost (lower is better)", "caption", svg::Anchor::Middle,
           -90);
    c.text({(f.left + f.right) / 2, kHeight - 6}, "results, oldest to newest: commit and date",
           "caption", svg::Anchor::Middle);
}

// The results to label: every k-th, counted back from the newest (always labelled).
std::vector<std::size_t> labelled(const Frame& f, std::size_t n) {
    const auto room =
        std::max<std::size_t>(1, static_cast<std::size_t>((f.right - f.left) / kLabelSpacing));
    const std::size_t every = std::max<std::size_t>(1, (n + room - 1) / room);
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < n; ++i) {
        if ((n - 1 - i) % every == 0) out.push_back(i);
    }
    return out;
}

// Commit and date under the labelled results; "11-22 03:15" instead of the date when two of
// them share a day.
void draw_x_labels(svg::Canvas& c, const Frame& f, const BenchmarkSeries& s) {
    const auto indices = labelled(f, s.points.size());
    std::set<std::string> days;
    for (const auto i : indices)
        days.insert(s.points[i].point.started.substr(0, 10));
    const bool times = days.size() < indices.size();
    for (const auto i : indices) {
        const auto& p = s.points[i].point;
        const auto details = point_details(s.points[i]);
        const auto stamp = short_time(p.started);
        c.line({f.x(i), f.bottom}, {f.x(i), f.bottom + 4}, "axis");
        c.text({f.x(i), f.bottom + 16}, short_commit(p.git), "tick", svg::Anchor::Middle, 0,
               details);
        c.text({f.x(i), f.bottom + 29},
               times && stamp.size() > 5 ? stamp.substr(5) : p.started.substr(0, 10), "tick",
               svg::Anchor::Middle, 0, details);
    }
}

void draw_breaks(svg::Canvas& c, const Frame& f, const BenchmarkSeries& s) {
    for (std::size_t i = 1; i < s.points.size(); ++i) {
        if (!key_changes_at(s, i)) continue;
        const double x = (f.x(i - 1) + f.x(i)) / 2;
        const auto title =
            fmt::format("measured differently from here on (fingerprint {} -> {}): not comparable",
                        s.points[i - 1].fingerprint_key, s.points[i].fingerprint_key);
        c.line({x, f.top - 4}, {x, f.bottom}, "break", title);
        c.text({x, f.top - 10}, "fingerprint changed", "breaklabel",
               x > f.right - 60 ? svg::Anchor::End : svg::Anchor::Middle, 0, title);
    }
}

// A line through the ok results of each stretch of one key.
void draw_lines(svg::Canvas& c, const Frame& f, const BenchmarkSeries& s,
                const FingerprintColours& colours) {
    std::vector<svg::Point> line;
    for (std::size_t i = 0; i <= s.points.size(); ++i) {
        if (i == s.points.size() || key_changes_at(s, i)) {
            if (line.size() > 1) {
                c.polyline(line, "line " + colour_class(colours, s.points[i - 1].fingerprint_key));
            }
            line.clear();
        }
        if (i == s.points.size()) break;
        if (const auto& cost = s.points[i].point.cost) line.push_back({f.x(i), f.y(*cost)});
    }
}

// Lines per stretch of one key, a dot per ok result, a cross per failed one.
void draw_points(svg::Canvas& c, const Frame& f, const BenchmarkSeries& s,
                 const FingerprintColours& colours) {
    draw_lines(c, f, s, colours);
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        const auto& k = s.points[i];
        const auto details = point_details(k);
        if (!k.point.cost) {
            c.cross({f.x(i), f.bottom - 7}, 5, "failed", details);
            continue;
        }
        const bool dirty = k.point.git.dirty.value_or(false);
        c.circle({f.x(i), f.y(*k.point.cost)}, i + 1 == s.points.size() ? 5 : 3.5,
                 fmt::format("dot {}{}", colour_class(colours, k.fingerprint_key),
                             dirty ? " dirty" : ""),
                 details);
    }
}

// The newest cost written next to its point.
void draw_latest_value(svg::Canvas& c, const Frame& f, const BenchmarkSeries& s) {
    const auto& last = s.points.back().point;
    if (!last.cost) return;
    const double x = f.x(s.points.size() - 1);
    const double y = f.y(*last.cost);
    const bool below = y < f.top + 16;
    const bool left_of = x > f.left + 120;
    c.text({left_of ? x - 8 : x + 8, below ? y + 18 : y - 10}, util::with_commas(*last.cost),
           "value", left_of ? svg::Anchor::End : svg::Anchor::Start);
}

}  // namespace

SeriesSummary summarize(const BenchmarkSeries& s) {
    SeriesSummary out;
    std::set<std::string_view> keys;
    for (const auto& k : s.points) {
        keys.insert(k.fingerprint_key);
        if (k.point.status != BenchStatus::Ok) ++out.failed;
    }
    out.fingerprints = keys.size();
    if (s.points.empty()) return out;
    out.latest = &s.points.back();
    if (!out.latest->point.cost) return out;
    out.vs_previous = out.latest->point.change;
    const auto first = std::find_if(s.points.begin(), s.points.end(), [&](const KeyedPoint& k) {
        return k.point.cost && k.fingerprint_key == out.latest->fingerprint_key;
    });
    if (&*first != out.latest && *first->point.cost > 0) {
        out.first = &*first;
        out.vs_first = (static_cast<double>(*out.latest->point.cost) -
                        static_cast<double>(*first->point.cost)) /
                       static_cast<double>(*first->point.cost);
    }
    return out;
}

std::string history_chart(const BenchmarkSeries& s, const FingerprintColours& colours) {
    Frame f;
    f.n = s.points.size();
    const auto range = cost_range(s);
    std::vector<std::uint64_t> ticks;
    if (range) {
        ticks = cost_ticks(*range);
        f.range = {ticks.front(), ticks.back()};
    }
    std::size_t widest = 1;
    for (const auto t : ticks)
        widest = std::max(widest, util::with_commas(t).size());
    f.left = 30 + kCharWidth * static_cast<double>(widest);
    svg::Canvas c(kWidth, kHeight, "chart", "cost of " + s.name + " over the recorded runs");
    draw_axes(c, f, ticks);
    if (!range) {
        c.text({(f.left + f.right) / 2, (f.top + f.bottom) / 2}, "no successful result", "caption",
               svg::Anchor::Middle);
    }
    draw_x_labels(c, f, s);
    draw_breaks(c, f, s);
    draw_points(c, f, s, colours);
    draw_latest_value(c, f, s);
    return c.str();
}

std::string sparkline(const BenchmarkSeries& s, const FingerprintColours& colours) {
    constexpr double kW = 120;
    constexpr double kH = 28;
    Frame f;
    f.left = 0;
    f.right = kW;
    f.top = 4;
    f.bottom = kH - 4;
    f.n = s.points.size();
    f.range = cost_range(s).value_or(Range{});
    svg::Canvas c(kW, kH, "spark", "trend of " + s.name);
    for (std::size_t i = 1; i < s.points.size(); ++i) {
        if (!key_changes_at(s, i)) continue;
        const double x = (f.x(i - 1) + f.x(i)) / 2;
        c.line({x, 0}, {x, kH}, "break");
    }
    draw_lines(c, f, s, colours);
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        if (!s.points[i].point.cost) c.cross({f.x(i), kH - 4}, 2.5, "failed");
    }
    const auto& last = s.points.back();
    if (last.point.cost) {
        c.circle({f.x(s.points.size() - 1), f.y(*last.point.cost)}, 2.5,
                 "dot " + colour_class(colours, last.fingerprint_key));
    }
    return c.str();
}

std::string short_commit(const GitInfo& git) {
    if (!git.commit) return "-";
    return git.commit->substr(0, 7) + (git.dirty.value_or(false) ? "+" : "");
}

std::string short_time(std::string_view iso) {
    if (iso.size() < 16 || iso[10] != 'T') return std::string(iso);
    return fmt::format("{} {}", iso.substr(0, 10), iso.substr(11, 5));
}

std::string point_details(const KeyedPoint& k) {
    const auto& p = k.point;
    std::string out = fmt::format("run {}\n{}", p.run_id, short_time(p.started));
    if (p.git.commit) {
        out += fmt::format(" · commit {}{}", p.git.commit->substr(0, 12),
                           p.git.dirty.value_or(false) ? " (uncommitted changes)" : "");
    }
    if (p.git.branch) out += fmt::format(" · branch {}", *p.git.branch);
    if (p.cost) {
        out += fmt::format("\ncost {}", util::with_commas(*p.cost));
    } else {
        out += fmt::format("\n{}", to_string(p.status));
    }
    if (p.ir) out += fmt::format(" · Ir {}", util::with_commas(*p.ir));
    if (p.change) out += fmt::format(" · {} vs previous", util::percent(*p.change));
    return out + fmt::format("\nfingerprint {}", k.fingerprint_key);
}

}  // namespace cgbench::report
