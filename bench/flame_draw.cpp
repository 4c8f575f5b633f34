// bench_flame: how long a differential flame graph of a large profile takes to make.
//
//   bench_flame [--functions N] [--repeat R]
//
// Generates two Callgrind-like call graphs (base and head) of N functions (default 10,000):
// main calls N/100 subsystems, each calls 99 functions of its own, every fifth of which also
// calls a shared helper; the head's costs differ from the base's for every seventh function.
// Then, R times (default 5), rebuilds both call trees (runner::call_tree_of) and draws the
// differential SVG (report::render_flame_svg), and prints one line: functions, call paths,
// SVG bytes and frames, and the best wall time of the trees and of the drawing.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "metrics/profile.hpp"
#include "report/flame_svg.hpp"
#include "runner/call_stacks.hpp"

namespace {

using namespace cgbench;

metrics::EventCounts ir(std::uint64_t n) {
    metrics::EventCounts c;
    c.set(metrics::Event::Ir, n);
    return c;
}

metrics::Profile graph(std::size_t functions, bool head) {
    metrics::Profile p;
    const std::size_t groups = std::max<std::size_t>(functions / 100, 1);
    std::uint64_t main_calls = 0;
    p.functions.push_back({"h.c", "helper", ir(0)});
    std::uint64_t helper = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        const auto sub = "subsystem_" + std::to_string(g);
        std::uint64_t sub_total = 10;
        p.functions.push_back({"s.c", sub, ir(10)});
        for (std::size_t f = 0; f < 99; ++f) {
            const std::size_t id = g * 99 + f;
            const auto name = "function_" + std::to_string(id) + "<std::vector<int>&>";
            std::uint64_t self = 100 + id % 37;
            if (head && id % 7 == 0) self = self * 3 / 2;
            p.functions.push_back({"f.c", name, ir(self)});
            p.calls.push_back({"s.c", sub, "f.c", name, ir(self + (f % 5 == 0 ? 50 : 0))});
            if (f % 5 == 0) {
                p.calls.push_back({"f.c", name, "h.c", "helper", ir(50)});
                helper += 50;
            }
            sub_total += self + (f % 5 == 0 ? 50 : 0);
        }
        p.calls.push_back({"m.c", "main", "s.c", sub, ir(sub_total)});
        main_calls += sub_total;
    }
    p.functions.front().counts = ir(helper);
    p.functions.push_back({"m.c", "main", ir(1000)});
    p.calls.push_back({"libc", "(below main)", "m.c", "main", ir(main_calls + 1000)});
    p.functions.push_back({"libc", "(below main)", ir(0)});
    return p;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t functions = 10'000;
    int repeat = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--functions")
            functions = std::strtoull(argv[i + 1], nullptr, 10);
        else if (opt == "--repeat")
            repeat = std::atoi(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: bench_flame [--functions N] [--repeat R]\n");
            return 2;
        }
    }
    metrics::Weights w;
    w.instructions_only = true;
    const auto base_graph = graph(functions, false);
    const auto head_graph = graph(functions, true);
    double best_trees = 1e9, best_draw = 1e9;
    std::size_t paths = 0, bytes = 0, frames = 0;
    for (int r = 0; r < repeat; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        const auto base = runner::call_tree_of(base_graph, w, "bench");
        const auto head = runner::call_tree_of(head_graph, w, "bench");
        best_trees = std::min(best_trees, seconds_since(t0));
        t0 = std::chrono::steady_clock::now();
        const auto svg = report::render_flame_svg({"bench", "", &head, &base});
        best_draw = std::min(best_draw, seconds_since(t0));
        paths = head.size();
        bytes = svg.size();
        frames = 0;
        for (auto at = svg.find("<g>"); at != std::string::npos; at = svg.find("<g>", at + 1))
            ++frames;
    }
    std::printf(
        "functions %zu  call paths %zu  svg %zu bytes, %zu frames  trees %.1f ms  "
        "draw %.1f ms\n",
        base_graph.functions.size(), paths, bytes, frames, best_trees * 1e3, best_draw * 1e3);
    return 0;
}
