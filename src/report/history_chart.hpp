#pragma once
// One benchmark's history as inline SVG for the HTML report: a line per branch (the colour of
// its branch), broken where the fingerprint's key changes (a dashed rule labelled with the
// epoch), the steps marked where they happened with their change and label, the results in
// commit order with commits and their dates under the x axis (links when a commit URL is known),
// failed results as crosses, results measured with uncommitted changes as hollow points off the
// line, the latest value of each line in the right margin. The value axis is relative to the first
// result of each epoch (at least ±1%) or zero-based (Axis). Every point has its details as a
// tooltip (SVG <title>) when the line has few enough to draw; the page's script shows them for all.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/lines.hpp"
#include "history/model.hpp"
#include "history/steps.hpp"
#include "report/chart_layout.hpp"

namespace cgbench::report {

// What the page knows that every chart uses.
struct ChartContext {
    const history::History* history = nullptr;
    const history::Commits* commits = nullptr;      // subjects, where git knew them
    std::map<std::string, std::size_t> branches;    // branch -> colour index (br0, br1, ...)
    std::optional<std::string> commit_url;          // template with {commit}
    Axis axis = Axis::Relative;
    // Fingerprint key -> its number on the page (1, 2, ...), naming the epochs a chart shows.
    std::map<std::string, std::size_t> fingerprint_numbers;
};

// One benchmark's chart: its lines (history::lines_of), its results measured with
// uncommitted changes, and its steps on those lines.
struct ChartInput {
    std::string name;
    std::string id;  // the chart's element id (the section anchor)
    std::vector<history::Line> lines;
    std::vector<history::Result> dirty;
    std::vector<const history::BenchmarkStep*> steps;
};

struct Chart {
    std::string svg;
    std::string data;  // JSON for the page's script: x positions, lines, values (see html_script)
    std::size_t step_labels = 0;  // steps whose label found room above the plot
};

Chart history_chart(const ChartInput& input, const ChartContext& context);

// A small line of the default branch's results (the first line) for the summary table, on a
// relative axis of at least the same minimum span, broken at epoch changes.
std::string sparkline(const ChartInput& input, const ChartContext& context);

// A result's details, several lines (the tooltip): run, date, commit and subject, branch,
// cost, Ir, change. Not escaped.
std::string point_details(const history::Result& r, const std::optional<double>& change,
                          const ChartContext& context);

}  // namespace cgbench::report
