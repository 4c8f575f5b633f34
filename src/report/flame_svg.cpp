#include "report/flame_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/escape.hpp"
#include "util/hash.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

constexpr double kMargin = 10;
constexpr double kFrameHeight = 16;
constexpr double kHeader = 56;      // title and subtitle above the frames
constexpr double kFooter = 24;      // the legend below them
constexpr double kCharWidth = 7.2;  // of the 12-unit monospace font
constexpr std::size_t kMaxDepth = 256;

// A frame drawn: one call path, or the paths merged into "(other)" under one caller.
struct Frame {
    double x = 0;
    double width = 0;
    std::size_t depth = 0;
    std::string_view name;
    std::uint64_t head = 0;
    std::uint64_t base = 0;
    bool in_base = false;    // the base has this path (or, merged, one of them)
    std::size_t merged = 0;  // paths merged into this frame (0: one path, drawn as itself)
};

// Places the head's paths, depth first, widths by cost; matches each with the base's path of
// the same names.
class Layout {
  public:
    explicit Layout(const FlameGraph& g)
        : head_(*g.head),
          base_(g.base),
          scale_(kFlameWidth / static_cast<double>(std::max<std::uint64_t>(head_.total(), 1))) {}

    std::vector<Frame> place() {
        todo_.push_back({CallTree::kRoot, base_ ? CallTree::kRoot : CallTree::kNone, 0, 0});
        while (!todo_.empty() && frames_.size() < kMaxFrames) {
            const Work w = todo_.back();
            todo_.pop_back();
            place(w);
        }
        truncated_ = !todo_.empty();
        return std::move(frames_);
    }
    bool truncated() const { return truncated_; }

  private:
    struct Work {
        std::uint32_t head;
        std::uint32_t base;  // kNone: the base lacks the path (or there is no base)
        double x;
        std::size_t depth;
    };

    std::uint64_t base_total(std::uint32_t id) const {
        return id == CallTree::kNone ? 0 : base_->node(id).total;
    }

    void place(const Work& w) {
        const CallNode& node = head_.node(w.head);
        frames_.push_back({w.x, static_cast<double>(node.total) * scale_, w.depth, node.name,
                           node.total, base_total(w.base), w.base != CallTree::kNone, 0});
        if (w.depth + 1 >= kMaxDepth) return;
        std::vector<std::uint32_t> kids = node.children;
        std::sort(kids.begin(), kids.end(), [&](std::uint32_t a, std::uint32_t b) {
            return head_.node(a).name < head_.node(b).name;
        });
        Frame other{0, 0, w.depth + 1, kOtherCalls, 0, 0, false, 0};
        std::vector<Work> next;
        double x = w.x;
        for (const auto kid : kids) {
            const CallNode& k = head_.node(kid);
            const auto match =
                w.base == CallTree::kNone ? CallTree::kNone : base_->find(w.base, k.name);
            const double width = static_cast<double>(k.total) * scale_;
            if (width < kMinFrameWidth || k.name == kOtherCalls) {
                other.head += k.total;
                other.base += base_total(match);
                other.in_base = other.in_base || match != CallTree::kNone;
                ++other.merged;
                continue;
            }
            next.push_back({kid, match, x, w.depth + 1});
            x += width;
        }
        other.x = x;
        other.width = static_cast<double>(other.head) * scale_;
        if (other.merged > 0 && other.width >= kMinFrameWidth) frames_.push_back(other);
        todo_.insert(todo_.end(), next.rbegin(), next.rend());  // the leftmost next
    }

    const CallTree& head_;
    const CallTree* base_;
    double scale_;
    std::vector<Work> todo_;
    std::vector<Frame> frames_;
    bool truncated_ = false;
};

// `name` cut to at most `max_bytes` on a UTF-8 boundary, `mark` appended when cut.
std::string cut(std::string_view name, std::size_t max_bytes, std::string_view mark) {
    if (name.size() <= max_bytes) return std::string(name);
    std::size_t n = max_bytes > mark.size() ? max_bytes - mark.size() : 0;
    while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80)
        --n;
    return std::string(name.substr(0, n)) + std::string(mark);
}

std::string signed_commas(std::int64_t v) {
    const auto magnitude = util::with_commas(static_cast<std::uint64_t>(v < 0 ? -v : v));
    return (v < 0 ? "-" : "+") + magnitude;
}

}  // namespace

namespace {

// A frame's colour. Differential: by its move against the largest move drawn; plain: a warm
// colour that stays the same for a name.
std::string fill(const Frame& f, bool differential, double max_move) {
    if (!differential) {
        const auto h = util::fnv1a64(f.name);
        return fmt::format("rgb({},{},{})", 205 + h % 50, 90 + (h >> 8) % 140, (h >> 16) % 60);
    }
    const double move = static_cast<double>(f.head) - static_cast<double>(f.base);
    if (move == 0 || max_move <= 0) return "rgb(220,220,220)";
    const double t = std::min(1.0, std::fabs(move) / max_move);
    const auto v = static_cast<int>(std::lround(215 * (1 - t)));
    return move > 0 ? fmt::format("rgb(255,{},{})", v, v) : fmt::format("rgb({},{},255)", v, v);
}

// The hover text: name, head cost and share, and the move from the base.
std::string title(const Frame& f, std::uint64_t whole, bool differential) {
    std::string name = cut(f.name, kMaxFrameName, "…");
    if (f.merged > 0) name = fmt::format("{} ({} call paths)", name, f.merged);
    std::string text = fmt::format("{}: cost {} ({:.2f}% of all)", name, util::with_commas(f.head),
                                   100.0 * static_cast<double>(f.head) /
                                       static_cast<double>(std::max<std::uint64_t>(whole, 1)));
    if (!differential) return text;
    if (!f.in_base) return text + ", not in the base";
    const auto move = static_cast<std::int64_t>(f.head) - static_cast<std::int64_t>(f.base);
    text += fmt::format(", base {}, {}", util::with_commas(f.base), signed_commas(move));
    if (f.base > 0) {
        text += " (" + util::percent(static_cast<double>(move) / static_cast<double>(f.base)) + ")";
    }
    return text;
}

// The label inside a frame: as much of the name as fits, ".." when cut; empty when nothing
// useful fits.
std::string label(const Frame& f) {
    const auto fits = static_cast<std::size_t>(std::max(0.0, (f.width - 4) / kCharWidth));
    if (fits < 3) return "";
    return cut(f.name, fits, "..");
}

std::string frame_element(const Frame& f, double top, std::uint64_t whole, bool differential,
                          double max_move) {
    const double y = top + static_cast<double>(f.depth) * kFrameHeight;
    std::string out = fmt::format(
        "<g><title>{}</title><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"{}\"/>",
        markup_escape(title(f, whole, differential)), kMargin + f.x, y, f.width, kFrameHeight - 1,
        fill(f, differential, max_move));
    if (const auto text = label(f); !text.empty()) {
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", kMargin + f.x + 3,
                           y + kFrameHeight - 4, markup_escape(text));
    }
    return out + "</g>\n";
}

std::string legend(bool differential, bool truncated) {
    std::string text = differential
                           ? "Width: the head's cost. Red: costlier than the base, blue: cheaper, "
                             "grey: unchanged (deeper: a larger move)."
                           : "Width: the cost of each call path.";
    text += " Narrow paths are merged into (other).";
    if (truncated) text += fmt::format(" Only the first {} frames are drawn.", kMaxFrames);
    return text;
}

}  // namespace

std::string render_flame_svg_element(const FlameGraph& g) {
    Layout layout(g);
    const auto frames = layout.place();
    const bool differential = g.base != nullptr;
    std::size_t depth = 0;
    double max_move = 0;
    for (const auto& f : frames) {
        depth = std::max(depth, f.depth);
        max_move = std::max(max_move,
                            std::fabs(static_cast<double>(f.head) - static_cast<double>(f.base)));
    }
    const double width = kFlameWidth + 2 * kMargin;
    const double height = kHeader + static_cast<double>(depth + 1) * kFrameHeight + kFooter;
    const auto name = markup_escape(cut(g.title, kMaxFrameName, "…"));
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"monospace\" font-size=\"12\" "
        "role=\"img\" aria-label=\"{3} flame graph of {2}\">\n<title>{3} flame graph of "
        "{2}</title>\n<rect x=\"0\" y=\"0\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "fill=\"rgb(255,255,255)\"/>\n",
        width, height, name, differential ? "Differential" : "A");
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">{}</text>\n",
        width / 2, name);
    if (!g.subtitle.empty()) {
        out += fmt::format("<text x=\"{:.1f}\" y=\"42\" text-anchor=\"middle\">{}</text>\n",
                           width / 2, markup_escape(g.subtitle));
    }
    // Flames grow upwards: the root at the bottom.
    const double bottom = kHeader + static_cast<double>(depth) * kFrameHeight;
    for (auto f : frames) {
        f.depth = depth - f.depth;
        out += frame_element(f, kHeader, g.head->total(), differential, max_move);
    }
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n</svg>\n", kMargin,
                       bottom + kFrameHeight + 16,
                       markup_escape(legend(differential, layout.truncated())));
    return out;
}

std::string render_flame_svg(const FlameGraph& g) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + render_flame_svg_element(g);
}

namespace {

// Whether `tag`, the text between "<" and ">" of one tag, is one the renderer writes: an
// element of its own with only the attributes it sets (an event handler such as onload is
// markup it did not write), or the end of one.
bool drawn_tag(std::string_view tag) {
    constexpr std::string_view kElements[] = {"svg",    "/svg", "g",    "/g",   "title",
                                              "/title", "rect", "text", "/text"};
    constexpr std::string_view kAttributes[] = {
        "xmlns", "width",      "height", "viewBox", "font-family", "font-size",
        "role",  "aria-label", "x",      "y",       "fill",        "text-anchor"};
    const auto known = [](const auto& list, std::string_view name) {
        return std::find(std::begin(list), std::end(list), name) != std::end(list);
    };
    if (tag.ends_with('/')) tag.remove_suffix(1);
    const auto name_end = std::min(tag.find(' '), tag.size());
    if (!known(kElements, tag.substr(0, name_end))) return false;
    tag.remove_prefix(name_end);
    // The attributes: ` NAME="VALUE"` each, values escaped (no quote inside).
    while (!tag.empty()) {
        const auto eq = tag.find("=\"");
        if (tag[0] != ' ' || eq == std::string_view::npos ||
            !known(kAttributes, tag.substr(1, eq - 1)))
            return false;
        const auto close = tag.find('"', eq + 2);
        if (close == std::string_view::npos) return false;
        tag.remove_prefix(close + 1);
    }
    return true;
}

}  // namespace

std::optional<std::string> embeddable_flame_svg(std::string_view document) {
    constexpr std::string_view kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    if (document.starts_with(kDeclaration)) document.remove_prefix(kDeclaration.size());
    if (!document.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" ") ||
        !document.ends_with("</svg>\n")) {
        return std::nullopt;
    }
    // Every tag is one the renderer writes: names inside are escaped, so any other "<" is
    // markup it did not write.
    for (auto at = document.find('<'); at != std::string_view::npos;
         at = document.find('<', at + 1)) {
        const auto end = document.find('>', at);
        if (end == std::string_view::npos || !drawn_tag(document.substr(at + 1, end - at - 1)))
            return std::nullopt;
    }
    return std::string(document);
}

}  // namespace cgbench::report
