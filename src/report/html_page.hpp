#pragma once
// Pieces of the HTML history page shared by its parts (html_history_reporter.cpp, the page;
// html_tables.cpp, its tables): what the page knows about each benchmark, and markup helpers.
// Everything returned is markup; every string from the history is escaped.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/lines.hpp"
#include "report/history_chart.hpp"
#include "report/html_history_reporter.hpp"

namespace cgbench::report::html {

// One benchmark as the page shows it.
struct Benchmark {
    std::string anchor;  // "b0", "b1", ...: its section's id
    ChartInput chart;    // lines, dirty results, steps
    const history::Series* series = nullptr;
};

// The page being written.
struct Page {
    const HtmlHistory& in;
    ChartContext context;
    std::vector<Benchmark> benchmarks;
    std::map<std::string, std::string, std::less<>> anchors;  // benchmark name -> anchor
    std::size_t left_out = 0;  // benchmarks beyond HtmlHistory::max_benchmarks, not shown
};

// Escaped text.
std::string e(std::string_view text);

// `text` (escaped) linking to `commit` when the page has a commit URL; else just the text.
std::string commit_link(const Page& page, const std::optional<std::string>& commit,
                        std::string_view text);

// A change as a coloured percentage: up (more expensive) red, down green, "-" for none.
std::string change_html(const std::optional<double>& change);

// The wobble of benchmark `name` when its moves are mostly wobble on some branch (the
// default branch's first); nullptr when it is repeatable.
const history::BenchmarkWobble* noisy(const Page& page, std::string_view name);

// A cost, or its status in red when it failed.
std::string cost_html(const history::Result& r);

// The steps table (events newest first, every branch) at the top of the page.
std::string steps_table(const Page& page);

// A benchmark's results, newest first, in a <details> under its chart.
std::string results_table(const Page& page, const Benchmark& b);

}  // namespace cgbench::report::html
