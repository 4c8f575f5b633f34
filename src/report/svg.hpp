#pragma once
// A small builder of inline SVG for the HTML report. Every string that goes in (text, titles)
// is escaped with markup_escape, so the fragment is well-formed XML whatever a benchmark is
// called; coordinates are written with one decimal; classes are the caller's constants.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::report::svg {

struct Point {
    double x = 0;
    double y = 0;
};

enum class Anchor { Start, Middle, End };

class Canvas {
  public:
    // An <svg> of `width` x `height` user units that scales to its container; `label` is its
    // accessible name.
    Canvas(double width, double height, std::string_view css_class, std::string_view label);

    // Each shape may carry a `title`: the tooltip a browser shows on hover (no script).
    Canvas& line(Point from, Point to, std::string_view css_class, std::string_view title = {});
    Canvas& polyline(const std::vector<Point>& points, std::string_view css_class);
    Canvas& circle(Point centre, double radius, std::string_view css_class,
                   std::string_view title = {});
    // An x-shaped mark of half-width `half` around `centre`.
    Canvas& cross(Point centre, double half, std::string_view css_class,
                  std::string_view title = {});
    // A path with the SVG path data `d` (the caller's numbers and commands only).
    Canvas& path(std::string_view d, std::string_view css_class, std::string_view title = {});
    // One line of text at `at` that links to `href` (an http(s) URL).
    Canvas& link_text(Point at, std::string_view content, std::string_view css_class,
                      Anchor anchor, std::string_view href);
    // One line of text at `at` (its baseline); `rotate` in degrees around `at`.
    Canvas& text(Point at, std::string_view content, std::string_view css_class,
                 Anchor anchor = Anchor::Start, double rotate = 0, std::string_view title = {});

    // The finished element, "<svg ...>...</svg>".
    std::string str() const;

  private:
    std::string open_;
    std::string body_;
};

// Round axis ticks (1, 2 or 5 times a power of ten, never below 1) from at most `lo` to at
// least `hi`, about `target` intervals apart; lo < hi.
std::vector<std::uint64_t> nice_ticks(std::uint64_t lo, std::uint64_t hi, std::size_t target);

}  // namespace cgbench::report::svg
