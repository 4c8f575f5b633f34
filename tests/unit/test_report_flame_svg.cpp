// The flame graph drawer (report/flame_svg.hpp): colours by delta and widths by the head's
// cost, names escaped, and the bounds on frames whatever the call tree holds.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "report/flame_svg.hpp"
#include "unit/flame_check.hpp"
#include "unit/markup_check.hpp"

namespace cgbench::report {

namespace {

// Adds a path of names (below the root) with `self` cost at its end.
void add(CallTree& t, std::initializer_list<std::string_view> path, std::uint64_t self) {
    std::uint32_t n = CallTree::kRoot;
    for (const auto name : path)
        n = t.child(n, name);
    t.add_self(n, self);
}

std::size_t count(const std::string& text, std::string_view what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

using testing_flame::drawn_frame;

bool reddish(const testing_flame::DrawnFrame& f) {
    return f.red == 255 && f.green >= 0 && f.green < 255 && f.green == f.blue;
}
bool bluish(const testing_flame::DrawnFrame& f) {
    return f.blue == 255 && f.red >= 0 && f.red < 255 && f.red == f.green;
}

std::string well_formed(const std::string& svg) {
    return testing_markup::MarkupChecker().check(svg, false);
}

}  // namespace

// The function that got costlier is wider than its share of the base and red; the one that
// got cheaper blue; the unchanged one grey.
TEST(FlameSvg, ColoursEachFrameByItsMoveAndSizesItByTheHead) {
    CallTree base("bench"), head("bench");
    add(base, {"main", "hot"}, 100);
    add(base, {"main", "steady"}, 100);
    add(base, {"main", "shrinks"}, 100);
    add(head, {"main", "hot"}, 300);
    add(head, {"main", "steady"}, 100);
    add(head, {"main", "shrinks"}, 50);
    const auto svg = render_flame_svg_element({"bench", "cost +50%", &head, &base});
    EXPECT_EQ(well_formed(svg), "");
    const auto hot = drawn_frame(svg, "hot");
    EXPECT_TRUE(reddish(hot)) << hot.fill;
    EXPECT_NEAR(hot.width / kFlameWidth, 300.0 / 450.0, 0.01);
    EXPECT_TRUE(bluish(drawn_frame(svg, "shrinks"))) << drawn_frame(svg, "shrinks").fill;
    EXPECT_EQ(drawn_frame(svg, "steady").fill, "rgb(220,220,220)");
    EXPECT_NE(svg.find("hot: cost 300 (66.67% of all), base 100, +200 (+200.00%)"),
              std::string::npos)
        << svg;
    // Alone (no base), the same tree is drawn without colours by delta.
    const auto plain = render_flame_svg({"bench", "", &head, nullptr});
    EXPECT_TRUE(plain.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"));
    EXPECT_EQ(plain.find("base 100"), std::string::npos);
}

// Names holding markup, quotes, ampersands and bytes that are not UTF-8 come out as text.
TEST(FlameSvg, EscapesEveryName) {
    CallTree head("<svg onload=alert(1)>");
    const std::string names[] = {"<script>alert(1)</script>", "std::vector<int>::operator[]",
                                 "a&b \"quoted\" it's", std::string("bad\xff\xfe bytes"),
                                 std::string(5000, 'x')};
    for (const auto& n : names)
        add(head, {"main", n}, 100);
    const auto svg = render_flame_svg_element({"<b>&name", "\"sub\" <i>", &head, &head});
    EXPECT_EQ(well_formed(svg), "");
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_EQ(svg.find("<b>"), std::string::npos);
    EXPECT_EQ(svg.find("<svg onload"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(svg.find("a&amp;b &quot;quoted&quot; it&#39;s"), std::string::npos) << svg;
    EXPECT_NE(svg.find("bad\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
    EXPECT_EQ(svg.find(std::string(kMaxFrameName + 1, 'x')), std::string::npos);
}

// What report --flame inlines: a graph as drawn (hostile names included) comes back as its
// <svg> element; a document with markup the drawer never writes, or no SVG at all, does not.
TEST(FlameSvg, EmbeddableIsWhatTheDrawerWritesAndNothingElse) {
    CallTree head("<svg onload=alert(1)>");
    add(head, {"main", "<script>alert(1)</script>"}, 100);
    add(head, {"main", "a<g>b</rect>"}, 50);
    const FlameGraph g{"<b>&name", "cost +1%", &head, &head};
    const auto element = render_flame_svg_element(g);
    EXPECT_EQ(embeddable_flame_svg(render_flame_svg(g)), element);
    EXPECT_EQ(embeddable_flame_svg(element), element);
    const auto with = [&](const std::string& markup) {
        auto doc = element;
        doc.insert(doc.find("<rect"), markup);
        return doc;
    };
    for (const auto& hostile :
         {std::string("<script>alert(1)</script>"), std::string("<foreignObject></foreignObject>"),
          std::string("<style>*{}</style>"), std::string("<a href=\"x\">x</a>"),
          std::string("<image href=\"x\"/>"), std::string("<"), std::string("<svg:script/>"),
          std::string("<g onload=\"alert(1)\"></g>"),
          std::string("<rect x=\"0\" onmouseover=\"alert(1)\"/>"),
          std::string("<text style=\"x\">x</text>"), std::string("<rect x=0/>")}) {
        EXPECT_EQ(embeddable_flame_svg(with(hostile)), std::nullopt) << hostile;
    }
    EXPECT_EQ(embeddable_flame_svg("<html><svg></svg></html>\n"), std::nullopt);
    EXPECT_EQ(embeddable_flame_svg(element.substr(0, element.size() - 2)), std::nullopt)
        << "cut short";
    EXPECT_EQ(embeddable_flame_svg(""), std::nullopt);
}

// 100,000 functions too narrow to draw are one "(other)" frame; a chain 5,000 calls deep is
// cut; a tree of more wide-enough frames than kMaxFrames is cut and says so.
TEST(FlameSvg, StaysBoundedWhateverTheTree) {
    CallTree wide("bench");
    add(wide, {"main", "big"}, 10'000'000);
    for (int i = 0; i < 100'000; ++i)
        add(wide, {"main", "f" + std::to_string(i)}, 1);
    auto svg = render_flame_svg_element({"wide", "", &wide, &wide});
    EXPECT_EQ(well_formed(svg), "");
    EXPECT_EQ(count(svg, "<g>"), 4U) << "root, main, big, (other)";
    EXPECT_NE(svg.find("(other) (100000 call paths): cost 100,000"), std::string::npos);
    EXPECT_LT(svg.size(), 10'000U);

    CallTree deep("bench");
    std::uint32_t n = CallTree::kRoot;
    for (int i = 0; i < 5000; ++i)
        n = deep.child(n, "level" + std::to_string(i));
    deep.add_self(n, 1000);
    svg = render_flame_svg_element({"deep", "", &deep, nullptr});
    EXPECT_EQ(well_formed(svg), "");
    EXPECT_LE(count(svg, "<g>"), 256U);

    CallTree many("bench");
    for (int i = 0; i < 1000; ++i) {
        std::uint32_t m = many.child(CallTree::kRoot, "r" + std::to_string(i));
        for (int d = 0; d < 20; ++d)
            m = many.child(m, "d" + std::to_string(d));
        many.add_self(m, 10);
    }
    svg = render_flame_svg_element({"many", "", &many, nullptr});
    EXPECT_EQ(well_formed(svg), "");
    EXPECT_EQ(count(svg, "<g>"), kMaxFrames);
    EXPECT_NE(svg.find("Only the first 10000 frames are drawn."), std::string::npos);
}

}  // namespace cgbench::report
