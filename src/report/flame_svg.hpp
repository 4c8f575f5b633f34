#pragma once
// One flame graph as a self-contained SVG document: no script, no external reference, a
// <title> on every frame for the browser's hover text. The differential form (a base given)
// draws the head's call paths with widths by the head's cost and colours each frame by how
// its inclusive cost moved from the base: red costlier, blue cheaper, grey unchanged, deeper
// the larger the move. Names are escaped (markup_escape) and cut; frames narrower than
// kMinFrameWidth are merged into one "(other)" frame per caller, and at most kMaxFrames are
// drawn, so the document is bounded whatever the profile (docs/reference/reports.md).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/call_tree.hpp"

namespace cgbench::report {

inline constexpr double kFlameWidth = 1200;  // user units, the frames' full width
inline constexpr double kMinFrameWidth = 1;  // narrower frames merge into "(other)"
inline constexpr std::size_t kMaxFrames = 10'000;
inline constexpr std::size_t kMaxFrameName = 400;  // bytes of a name shown (titles too)

struct FlameGraph {
    std::string title;               // the benchmark's name, escaped when drawn
    std::string subtitle;            // "cost +12.3%: base 1,000 -> head 1,123", or empty
    const CallTree* head = nullptr;  // the paths drawn, widths by their cost
    const CallTree* base = nullptr;  // null: a plain flame graph, coloured by name
};

// The SVG document ("<?xml ...?><svg ...>...</svg>\n") of `graph`; `graph.head` required.
std::string render_flame_svg(const FlameGraph& graph);

// The same without the XML declaration, to embed in an HTML page.
std::string render_flame_svg_element(const FlameGraph& graph);

// The <svg> element of `document` when it reads as render_flame_svg writes it (an optional
// XML declaration, then one SVG element of svg, g, title, rect and text elements only: no
// script, style, link or foreign content), to inline in an HTML page; nullopt otherwise.
std::optional<std::string> embeddable_flame_svg(std::string_view document);

}  // namespace cgbench::report
