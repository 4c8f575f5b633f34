#pragma once
// `cgbench report --html`: the history database as one self-contained HTML page (inline CSS
// and SVG, no script, nothing loaded from elsewhere): a summary table, then a chart per
// benchmark. Every string from the database is escaped.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "store/history_store.hpp"

namespace cgbench::report {

struct HtmlHistory {
    std::string database;                        // the file the history was read from
    std::string generated;                       // when the page was made (ISO-8601)
    std::size_t limit = 0;                       // the most results shown per benchmark
    std::optional<std::string> filter;           // --filter, when given
    std::vector<store::BenchmarkSeries> series;  // by name, each oldest first, none empty
};

std::string render_html_history(const HtmlHistory& history);

}  // namespace cgbench::report
