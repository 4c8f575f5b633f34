#pragma once
// `cgbench report --html`: the history as one self-contained HTML page to navigate: the steps
// found (newest first) and the fingerprints at the top, a summary row per benchmark, then a
// chart per benchmark with a line per branch (the default branch first), epochs, step markers
// and commit links, and a table of its results; the flame graphs given, after the steps. Inline CSS
// and SVG; one small inline script, allowed by its hash, adds a name filter, branch switches and
// hover details, and the page reads without it. Nothing loads from elsewhere; every string from the
// database is escaped.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "history/model.hpp"
#include "history/steps.hpp"
#include "report/chart_layout.hpp"

namespace cgbench::report {

// The most benchmarks a page shows unless told otherwise: each is a chart and a table of
// results, and a page of 100,000 would be hundreds of megabytes no browser opens.
inline constexpr std::size_t kMaxHtmlBenchmarks = 1000;

// A flame graph shown on the page: its name (escaped when shown) and its <svg> element as
// embeddable_flame_svg (flame_svg.hpp) accepted it, inlined as is.
struct EmbeddedFlame {
    std::string name;
    std::string svg;
};

struct HtmlHistory {
    std::string database;                       // the file the history was read from
    std::string generated;                      // when the page was made (ISO-8601)
    std::size_t limit = 0;                      // the most results shown per benchmark
    std::optional<std::string> filter;          // --filter, when given
    const history::History* history = nullptr;  // runs, and the series shown (none empty)
    std::vector<history::BranchSteps> steps;    // the steps of those series
    history::Commits commits;                   // subjects of the commits git knows
    std::string default_branch;
    std::optional<std::string> commit_url;  // a template with {commit}: commits become links
    Axis axis = Axis::Relative;
    // The most benchmarks shown: those with steps first, then in the history's order; the
    // page says how many are left out.
    std::size_t max_benchmarks = kMaxHtmlBenchmarks;
    // Flame graphs (`report --flame DIR`: those `pr` and `steps --flame` drew), shown after
    // the steps in this order.
    std::vector<EmbeddedFlame> flames;
};

std::string render_html_history(const HtmlHistory& history);

}  // namespace cgbench::report
