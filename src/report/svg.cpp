#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/escape.hpp"

namespace cgbench::report::svg {

namespace {

// An element with optional tooltip: <NAME ATTRS/> or <NAME ATTRS><title>T</title></NAME>.
std::string element(std::string_view name, const std::string& attributes,
                    std::string_view css_class, std::string_view title) {
    std::string out = fmt::format("<{} {} class=\"{}\"", name, attributes, markup_escape(css_class));
    if (title.empty()) return out + "/>";
    return out + fmt::format("><title>{}</title></{}>", markup_escape(title), name);
}

std::string_view anchor_name(Anchor a) {
    switch (a) {
        case Anchor::Middle:
            return "middle";
        case Anchor::End:
            return "end";
        case Anchor::Start:
            break;
    }
    return "start";
}

}  // namespace

Canvas::Canvas(double width, double height, std::string_view css_class, std::string_view label)
    : open_(fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {:.0f} {:.0f}\" "
                        "width=\"{:.0f}\" height=\"{:.0f}\" class=\"{}\" role=\"img\" "
                        "aria-label=\"{}\">",
                        width, height, width, height, markup_escape(css_class), markup_escape(label))) {
}

Canvas& Canvas::line(Point from, Point to, std::string_view css_class, std::string_view title) {
    body_ += element("line",
                     fmt::format("x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"", from.x,
                                 from.y, to.x, to.y),
                     css_class, title);
    return *this;
}

Canvas& Canvas::polyline(const std::vector<Point>& points, std::string_view css_class) {
    std::string coordinates;
    for (const auto& p : points) {
        if (!coordinates.empty()) coordinates += ' ';
        coordinates += fmt::format("{:.1f},{:.1f}", p.x, p.y);
    }
    body_ += element("polyline", fmt::format("points=\"{}\"", coordinates), css_class, {});
    return *this;
}

Canvas& Canvas::circle(Point centre, double radius, std::string_view css_class,
                       std::string_view title) {
    body_ +=
        element("circle",
                fmt::format("cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"", centre.x, centre.y, radius),
                css_class, title);
    return *this;
}

Canvas& Canvas::cross(Point c, double half, std::string_view css_class, std::string_view title) {
    const auto d = fmt::format("d=\"M{:.1f},{:.1f}L{:.1f},{:.1f}M{:.1f},{:.1f}L{:.1f},{:.1f}\"",
                               c.x - half, c.y - half, c.x + half, c.y + half, c.x - half,
                               c.y + half, c.x + half, c.y - half);
    body_ += element("path", d, css_class, title);
    return *this;
}

Canvas& Canvas::path(std::string_view d, std::string_view css_class, std::string_view title) {
    body_ += element("path", fmt::format("d=\"{}\"", markup_escape(d)), css_class, title);
    return *this;
}

Canvas& Canvas::link_text(Point at, std::string_view content, std::string_view css_class,
                          Anchor anchor, std::string_view href) {
    body_ += fmt::format("<a href=\"{}\">", markup_escape(href));
    text(at, content, css_class, anchor);
    body_ += "</a>";
    return *this;
}

Canvas& Canvas::text(Point at, std::string_view content, std::string_view css_class, Anchor anchor,
                     double rotate, std::string_view title) {
    std::string attributes = fmt::format("x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"", at.x, at.y,
                                         anchor_name(anchor));
    if (rotate != 0) {
        attributes +=
            fmt::format(" transform=\"rotate({:.0f} {:.1f} {:.1f})\"", rotate, at.x, at.y);
    }
    body_ += fmt::format("<text {} class=\"{}\">", attributes, markup_escape(css_class));
    if (!title.empty()) body_ += fmt::format("<title>{}</title>", markup_escape(title));
    body_ += markup_escape(content) + "</text>";
    return *this;
}

std::string Canvas::str() const {
    return open_ + body_ + "</svg>";
}

std::vector<std::uint64_t> nice_ticks(std::uint64_t lo, std::uint64_t hi, std::size_t target) {
    const double raw =
        static_cast<double>(hi - lo) / static_cast<double>(std::max<std::size_t>(target, 1));
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double step = 10 * magnitude;
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    }
    const auto s = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(step)));
    std::vector<std::uint64_t> ticks;
    for (std::uint64_t t = lo / s * s;; t += s) {
        ticks.push_back(t);
        if (t >= hi) break;
    }
    return ticks;
}

}  // namespace cgbench::report::svg
