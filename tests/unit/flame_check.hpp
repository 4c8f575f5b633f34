#pragma once
// One frame of a flame graph SVG (report/flame_svg.cpp) as the tests read it: found by its
// hover text, which starts with its name and a colon.

#include <cstdio>
#include <string>

namespace cgbench::testing_flame {

struct DrawnFrame {
    double width = -1;  // -1: no frame of that name
    int red = -1;
    int green = -1;
    int blue = -1;
    std::string fill;
};

inline DrawnFrame drawn_frame(const std::string& svg, const std::string& name) {
    const auto at = svg.find("<g><title>" + name + ":");
    if (at == std::string::npos) return {};
    const auto attribute = [&](const std::string& key) {
        const auto from = svg.find(key + "=\"", at) + key.size() + 2;
        return svg.substr(from, svg.find('"', from) - from);
    };
    DrawnFrame f;
    f.width = std::stod(attribute("width"));
    f.fill = attribute("fill");
    std::sscanf(f.fill.c_str(), "rgb(%d,%d,%d)", &f.red, &f.green, &f.blue);
    return f;
}

}  // namespace cgbench::testing_flame
