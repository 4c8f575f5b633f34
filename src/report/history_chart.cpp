#include "report/history_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "config/commit_url.hpp"
#include "core/result_json.hpp"
#include "report/history_text.hpp"
#include "report/svg.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using history::Result;
using ojson = nlohmann::ordered_json;

constexpr double kWidth = 860;
constexpr double kHeight = 330;
constexpr double kLabelRow = 16;
constexpr std::size_t kLabelRows = 3;
constexpr double kTop = 10 + kLabelRows * kLabelRow + 8;  // the label band above the plot
constexpr double kBottom = kHeight - 46;                  // two lines of x labels below
constexpr double kRightMargin = 108;                      // the latest values
constexpr double kPad = 12;                               // between axes and the outer points
constexpr std::size_t kMaxDots = 150;                     // more per line: no dot each

// A stretch of the chart's x positions measured with one fingerprint key.
struct Segment {
    std::size_t first = 0;
    std::size_t last = 0;
    std::size_t fingerprint = 0;
};

// The 0% of a relative axis for one fingerprint key: its first ok result on a line (results
// with uncommitted changes only when no line has one).
struct Base {
    std::uint64_t cost = 0;
    std::size_t pos = SIZE_MAX;
    bool clean = false;
};

class ChartBuilder {
  public:
    ChartBuilder(const ChartInput& in, const ChartContext& cx)
        : in_(in),
          cx_(cx),
          h_(*cx.history),
          canvas_(kWidth, kHeight, "chart", "cost of " + in.name) {
        collect_positions();
        collect_segments();
        choose_axis();
    }

    Chart build() {
        draw_axes();
        draw_epochs_and_steps();
        draw_lines();
        draw_x_labels();
        draw_latest_values();
        Chart out;
        out.svg = canvas_.str();
        out.data = data_json();
        out.step_labels = step_labels_;
        return out;
    }

  private:
    // Every drawn result's run, in x order.
    void collect_positions() {
        for (const auto& line : in_.lines) {
            for (const auto& p : line.points)
                runs_.push_back(p.run);
        }
        for (const auto& p : in_.dirty)
            runs_.push_back(p.run);
        std::sort(runs_.begin(), runs_.end());
        runs_.erase(std::unique(runs_.begin(), runs_.end()), runs_.end());
    }

    std::size_t pos(const Result& r) const {
        return static_cast<std::size_t>(std::lower_bound(runs_.begin(), runs_.end(), r.run) -
                                        runs_.begin());
    }

    void collect_segments() {
        for (std::size_t i = 0; i < runs_.size(); ++i) {
            const auto& key = h_.key_of(runs_[i]);
            if (segments_.empty() || h_.key_of(runs_[segments_.back().first]) != key) {
                segments_.push_back({i, i, h_.runs[runs_[i]].fingerprint});
            } else {
                segments_.back().last = i;
            }
        }
        const auto consider = [this](const Result& r, bool clean) {
            if (!r.cost) return;
            auto& b = bases_[h_.key_of(r.run)];
            if ((clean && !b.clean) || (clean == b.clean && pos(r) < b.pos))
                b = {*r.cost, pos(r), clean};
        };
        for (const auto& line : in_.lines) {
            for (const auto& p : line.points)
                consider(p, true);
        }
        for (const auto& p : in_.dirty)
            consider(p, false);
    }

    const Segment& segment_at(std::size_t p) const {
        return *std::find_if(segments_.begin(), segments_.end(),
                             [p](const Segment& s) { return p >= s.first && p <= s.last; });
    }

    // A result's value on the axis: % against the first result of its fingerprint (results
    // of one fingerprint are comparable, of two are not), or its cost.
    std::optional<double> value(const Result& r) const {
        if (!r.cost) return std::nullopt;
        if (cx_.axis == Axis::Zero) return static_cast<double>(*r.cost);
        const auto it = bases_.find(h_.key_of(r.run));
        if (it == bases_.end() || it->second.cost == 0) return std::nullopt;
        const auto base = static_cast<double>(it->second.cost);
        return 100.0 * (static_cast<double>(*r.cost) - base) / base;
    }

    template <typename F>
    void each_value(const F& f) const {
        for (const auto& line : in_.lines) {
            for (const auto& p : line.points) {
                if (const auto v = value(p)) f(*v);
            }
        }
        for (const auto& p : in_.dirty) {
            if (const auto v = value(p)) f(*v);
        }
    }

    void choose_axis() {
        double lo = 0;
        double hi = 0;
        bool any = false;
        each_value([&](double v) {
            lo = any ? std::min(lo, v) : v;
            hi = any ? std::max(hi, v) : v;
            any = true;
        });
        axis_ = cx_.axis == Axis::Zero ? zero_axis(hi) : relative_axis(lo, hi);
        std::size_t widest = 1;
        for (const auto t : axis_.ticks)
            widest = std::max(widest, tick_text(t).size());
        left_ = 26 + 7.0 * static_cast<double>(widest);
        right_ = kWidth - kRightMargin;
    }

    std::string tick_text(double t) const {
        if (cx_.axis == Axis::Zero) return util::with_commas(static_cast<std::uint64_t>(t));
        if (t == 0) return "0%";
        const double step = axis_.ticks.size() > 1 ? axis_.ticks[1] - axis_.ticks[0] : 1;
        const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
        return fmt::format("{:+.{}f}%", t, decimals);
    }

    double x(std::size_t p) const {
        if (runs_.size() < 2) return (left_ + right_) / 2;
        return left_ + kPad +
               (right_ - left_ - 2 * kPad) * static_cast<double>(p) /
                   static_cast<double>(runs_.size() - 1);
    }
    double y(double v) const {
        return kBottom - (kBottom - kTop) * (v - axis_.lo) / (axis_.hi - axis_.lo);
    }

    std::string branch_class(const Result& r) const {
        const auto it = cx_.branches.find(history::branch_of(h_.run_of(r)));
        return fmt::format("br{}", it == cx_.branches.end() ? 0 : it->second);
    }

    std::optional<std::string> url_of(const Result& r) const {
        const auto& commit = h_.run_of(r).git.commit;
        if (!cx_.commit_url || !commit) return std::nullopt;
        return config::commit_url(*cx_.commit_url, *commit);
    }

    void draw_axes() {
        for (const auto t : axis_.ticks) {
            canvas_.line({left_, y(t)}, {right_, y(t)},
                         t == 0 && cx_.axis == Axis::Relative ? "grid zero" : "grid");
            canvas_.text({left_ - 6, y(t) + 4}, tick_text(t), "tick", svg::Anchor::End);
        }
        canvas_.line({left_, kTop}, {left_, kBottom}, "axis");
        canvas_.line({left_, kBottom}, {right_, kBottom}, "axis");
        const std::string caption = cx_.axis == Axis::Zero
                                        ? "cost (from zero; lower is better)"
                                        : "% vs the first result of its fingerprint";
        canvas_.text({12, (kTop + kBottom) / 2}, caption, "caption", svg::Anchor::Middle, -90);
    }

    // Epoch rules with their labels, and the step markers with theirs, the labels sharing the
    // band above the plot without overlapping (epochs first, then code, environment and
    // wobble steps, larger moves first).
    void draw_epochs_and_steps() {
        std::vector<LabelBox> boxes;
        std::vector<std::string> texts;
        std::vector<std::string> classes;
        std::vector<std::string> titles;
        for (std::size_t i = 1; i < segments_.size(); ++i) {
            const double at = (x(segments_[i].first - 1) + x(segments_[i].first)) / 2;
            const auto title = epoch_title(i);
            canvas_.line({at, kTop - 4}, {at, kBottom}, "break", title);
            texts.push_back(fmt::format("fingerprint {}", fingerprint_number(i)));
            boxes.push_back({at, label_width(texts.back())});
            classes.push_back("epochlabel");
            titles.push_back(title);
        }
        auto steps = in_.steps;
        std::stable_sort(steps.begin(), steps.end(), [](const auto* a, const auto* b) {
            if (a->step.label != b->step.label) return a->step.label < b->step.label;
            return std::abs(a->step.change) > std::abs(b->step.change);
        });
        for (const auto* s : steps) {
            const auto p = pos(s->after);
            const auto v = value(s->after);
            const double px = x(p);
            const double py = v ? y(*v) : kBottom;
            const auto label = std::string(history::to_string(s->step.label));
            const auto title = step_title(*s);
            canvas_.line({px, kTop - 2}, {px, py}, "stepguide " + label);
            const double dy = s->step.change > 0 ? 7 : -7;
            canvas_.path(fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", px, py - dy,
                                     px - 4.5, py + dy * 0.4, px + 4.5, py + dy * 0.4),
                         "stepmark " + label, title);
            texts.push_back(util::precise_percent(s->step.change) + " " + label +
                            (s->step.pending ? "*" : ""));
            boxes.push_back({px, label_width(texts.back())});
            classes.push_back("steplabel " + label);
            titles.push_back(title);
        }
        const auto rows = place_labels(boxes, left_, right_, kLabelRows, 6);
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            if (!rows[i]) continue;
            const double baseline = 10 + kLabelRow * static_cast<double>(*rows[i] + 1) - 3;
            canvas_.text({boxes[i].x, baseline}, texts[i], classes[i], svg::Anchor::Middle, 0,
                         titles[i]);
            if (classes[i] != "epochlabel") ++step_labels_;
        }
    }

    // The page's number of segment `i`'s fingerprint (its position among the chart's
    // segments when the page gave none).
    std::size_t fingerprint_number(std::size_t i) const {
        const auto it = cx_.fingerprint_numbers.find(h_.keys[segments_[i].fingerprint]);
        return it == cx_.fingerprint_numbers.end() ? i + 1 : it->second;
    }

    std::string epoch_title(std::size_t i) const {
        const auto& before = h_.fingerprints[segments_[i - 1].fingerprint];
        const auto& after = h_.fingerprints[segments_[i].fingerprint];
        return fmt::format(
            "a new epoch: measured differently from here on (fingerprint {}, {}), "
            "not compared with the results before: {}",
            fingerprint_number(i), h_.keys[segments_[i].fingerprint],
            util::join(before.differences(after), "; "));
    }

    std::string step_title(const history::BenchmarkStep& s) const {
        std::string out = fmt::format(
            "{} step of {}: {} -> {} ({}) on {}", history::to_string(s.step.label), in_.name,
            util::with_commas(*s.before.cost), util::with_commas(*s.after.cost),
            util::precise_percent(s.step.change), history::branch_of(h_.run_of(s.after)));
        const auto& commit = h_.run_of(s.after).git.commit;
        if (commit) out += " at " + commit->substr(0, 12);
        if (!s.step.environment.empty()) out += "\n" + util::join(s.step.environment, "; ");
        if (s.step.pending) out += "\nthe newest result: whether it lasts shows at the next one";
        return out;
    }

    void draw_lines() {
        for (const auto& line : in_.lines) {
            const auto changes = history::changes_of(h_, line.points);
            const bool dots = line.points.size() <= kMaxDots;
            std::vector<svg::Point> stretch;
            std::size_t segment = SIZE_MAX;
            const auto flush = [&](const std::string& cls) {
                if (stretch.size() > 1) canvas_.polyline(stretch, "line " + cls);
                stretch.clear();
            };
            const std::string cls = line.points.empty() ? "br0" : branch_class(line.points.front());
            for (std::size_t i = 0; i < line.points.size(); ++i) {
                const auto& p = line.points[i];
                const auto at = pos(p);
                const auto seg = static_cast<std::size_t>(&segment_at(at) - segments_.data());
                if (seg != segment) flush(cls);
                segment = seg;
                const auto v = value(p);
                const bool last = i + 1 == line.points.size();
                if (!v) {
                    canvas_.cross({x(at), kBottom - 7}, 5, "failed",
                                  point_details(p, std::nullopt, cx_));
                    continue;
                }
                stretch.push_back({x(at), y(*v)});
                if (dots || last) {
                    canvas_.circle({x(at), y(*v)}, last ? 4.5 : 3, "dot " + cls,
                                   point_details(p, changes[i], cx_));
                }
            }
            flush(cls);
        }
        for (const auto& p : in_.dirty) {
            if (const auto v = value(p)) {
                canvas_.circle({x(pos(p)), y(*v)}, 3.5, "dot dirty " + branch_class(p),
                               point_details(p, std::nullopt, cx_));
            }
        }
    }

    // Commit and its date under the x axis (commit order): first where steps are, then the
    // newest, the oldest and evenly between, as many as fit without overlapping.
    void draw_x_labels() {
        if (runs_.empty()) return;
        std::vector<std::size_t> wanted;
        for (const auto* s : in_.steps)
            wanted.push_back(pos(s->after));
        wanted.push_back(runs_.size() - 1);
        wanted.push_back(0);
        const auto every = std::max<std::size_t>(1, runs_.size() / 8);
        for (std::size_t p = runs_.size(); p-- > 0;) {
            if ((runs_.size() - 1 - p) % every == 0) wanted.push_back(p);
        }
        std::vector<LabelBox> boxes;
        for (const auto p : wanted)
            boxes.push_back({x(p), label_width("00-00 00:00")});
        const auto rows = place_labels(boxes, 0, kWidth, 1, 10);
        std::vector<bool> done(runs_.size());
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const auto p = wanted[i];
            if (!rows[i] || done[p]) continue;
            done[p] = true;
            const auto& run = h_.runs[runs_[p]];
            Result r;
            r.run = runs_[p];
            const auto stamp = run_date(run);
            canvas_.line({x(p), kBottom}, {x(p), kBottom + 4}, "axis");
            const auto url = url_of(r);
            const auto commit = short_commit(run.git.commit);
            if (url) {
                canvas_.link_text({boxes[i].x, kBottom + 17}, commit, "tick commit",
                                  svg::Anchor::Middle, *url);
            } else {
                canvas_.text({boxes[i].x, kBottom + 17}, commit, "tick commit",
                             svg::Anchor::Middle);
            }
            canvas_.text({boxes[i].x, kBottom + 31}, stamp.size() > 5 ? stamp.substr(5) : stamp,
                         "tick", svg::Anchor::Middle);
        }
    }

    void draw_latest_values() {
        std::vector<double> ys;
        std::vector<const Result*> last;
        for (const auto& line : in_.lines) {
            const auto it = std::find_if(line.points.rbegin(), line.points.rend(),
                                         [](const Result& r) { return r.cost.has_value(); });
            if (it == line.points.rend() || !value(*it)) continue;
            ys.push_back(y(*value(*it)) + 4);
            last.push_back(&*it);
        }
        const auto placed = spread_apart(ys, 16, kTop + 4, kBottom);
        for (std::size_t i = 0; i < last.size(); ++i) {
            canvas_.text({right_ + 8, placed[i]}, util::with_commas(*last[i]->cost),
                         "value " + branch_class(*last[i]), svg::Anchor::Start, 0,
                         point_details(*last[i], std::nullopt, cx_));
        }
    }

    std::string data_json() const {
        ojson lines = ojson::array();
        for (const auto& line : in_.lines) {
            const auto changes = history::changes_of(h_, line.points);
            ojson points = ojson::array();
            for (std::size_t i = 0; i < line.points.size(); ++i) {
                const auto& p = line.points[i];
                ojson point = ojson::array({pos(p), json_or_null(p.cost)});
                if (changes[i]) point.push_back(std::round(*changes[i] * 1e8) / 1e8);
                points.push_back(std::move(point));
            }
            const auto it = cx_.branches.find(line.branch);
            lines.push_back(
                ojson::array({it == cx_.branches.end() ? 0 : it->second, std::move(points)}));
        }
        const double dx = runs_.size() < 2 ? 0 : x(1) - x(0);
        return ojson{{"id", in_.id},
                     {"x0", std::round(x(0) * 10) / 10},
                     {"dx", dx},
                     {"top", kTop},
                     {"bottom", kBottom},
                     {"runs", runs_},
                     {"lines", std::move(lines)}}
            .dump();
    }

    const ChartInput& in_;
    const ChartContext& cx_;
    const history::History& h_;
    svg::Canvas canvas_;
    std::vector<std::size_t> runs_;  // History::runs indices, in x order
    std::vector<Segment> segments_;
    std::map<std::string, Base, std::less<>> bases_;  // by fingerprint key
    AxisRange axis_;
    double left_ = 0;
    double right_ = 0;
    std::size_t step_labels_ = 0;
};

}  // namespace

Chart history_chart(const ChartInput& input, const ChartContext& context) {
    return ChartBuilder(input, context).build();
}

std::string sparkline(const ChartInput& input, const ChartContext& context) {
    constexpr double kW = 120;
    constexpr double kH = 28;
    svg::Canvas c(kW, kH, "spark", "trend of " + input.name);
    if (input.lines.empty()) return c.str();
    const auto& h = *context.history;
    const auto& points = input.lines.front().points;
    const auto epochs = history::epochs_of(h, points);
    std::vector<std::optional<double>> values(points.size());
    double lo = 0;
    double hi = 0;
    for (const auto& e : epochs) {
        std::optional<std::uint64_t> base;
        for (std::size_t i = e.first; i <= e.last; ++i) {
            if (!points[i].cost) continue;
            if (!base) base = points[i].cost;
            if (*base == 0) continue;
            values[i] = 100.0 *
                        (static_cast<double>(*points[i].cost) - static_cast<double>(*base)) /
                        static_cast<double>(*base);
            lo = std::min(lo, *values[i]);
            hi = std::max(hi, *values[i]);
        }
    }
    const auto axis = relative_axis(lo, hi);
    const auto px = [&](std::size_t i) {
        return points.size() < 2
                   ? kW / 2
                   : 3 + (kW - 6) * static_cast<double>(i) / static_cast<double>(points.size() - 1);
    };
    const auto py = [&](double v) {
        return kH - 3 - (kH - 6) * (v - axis.lo) / (axis.hi - axis.lo);
    };
    for (const auto& e : epochs) {
        std::vector<svg::Point> line;
        for (std::size_t i = e.first; i <= e.last; ++i) {
            if (values[i]) line.push_back({px(i), py(*values[i])});
        }
        if (e.first > 0) c.line({px(e.first) - 1, 0}, {px(e.first) - 1, kH}, "break");
        if (line.size() > 1) c.polyline(line, "line br0");
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].cost) c.cross({px(i), kH - 4}, 2.5, "failed");
    }
    if (!values.empty() && values.back())
        c.circle({px(points.size() - 1), py(*values.back())}, 2.5, "dot br0");
    return c.str();
}

std::string point_details(const Result& r, const std::optional<double>& change,
                          const ChartContext& cx) {
    const auto& run = cx.history->run_of(r);
    std::string out = commit_date(run).empty()
                          ? fmt::format("measured {} · run {}", short_time(run.started), run.id)
                          : fmt::format("committed {} · measured {} · run {}", commit_date(run),
                                        short_time(run.started), run.id);
    if (run.git.commit) {
        out += fmt::format("\ncommit {}{}", run.git.commit->substr(0, 12),
                           run.git.dirty.value_or(false) ? " with uncommitted changes" : "");
        if (cx.commits != nullptr) {
            if (const auto it = cx.commits->find(*run.git.commit); it != cx.commits->end()) {
                out += "\n" + it->second.subject;
            }
        }
    }
    out += "\nbranch " + history::branch_of(run);
    if (r.cost) {
        out += fmt::format("\ncost {}", util::with_commas(*r.cost));
    } else {
        out += fmt::format("\n{}", to_string(r.status));
    }
    if (r.ir) out += fmt::format(" · Ir {}", util::with_commas(*r.ir));
    if (change) out += fmt::format(" · {} vs previous", util::precise_percent(*change));
    return out;
}

}  // namespace cgbench::report
