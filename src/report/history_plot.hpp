#pragma once
// One benchmark's history as inline SVG for the HTML report: a chart with axes and a
// sparkline. Consecutive results with one fingerprint key are one line in that key's colour;
// where the key changes the line breaks and a dashed rule marks it, since results measured
// differently are not comparable. Failed results are crosses on the x axis.

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "store/history_store.hpp"

namespace cgbench::report {

// Fingerprint key -> colour index (CSS classes k0, k1, ...), the same in every plot.
using FingerprintColours = std::map<std::string, std::size_t, std::less<>>;

// What the page says about a series besides its plot.
struct SeriesSummary {
    const store::KeyedPoint* latest = nullptr;  // the newest result (it may have failed)
    std::optional<double> vs_previous;          // latest cost vs the previous ok result, same key
    std::optional<double> vs_first;            // latest cost vs the first ok result shown, same key
    const store::KeyedPoint* first = nullptr;  // that first result
    std::size_t failed = 0;
    std::size_t fingerprints = 0;  // distinct keys
};

SeriesSummary summarize(const store::BenchmarkSeries& series);

// The chart of `series` (at least one point): cost over the results, oldest to newest,
// labelled by short commit and date, each point with its details as a tooltip.
std::string history_chart(const store::BenchmarkSeries& series, const FingerprintColours& colours);

// A small line of the same series for the summary table.
std::string sparkline(const store::BenchmarkSeries& series, const FingerprintColours& colours);

// "0123456" plus "+" for uncommitted changes; "-" without a commit. Not escaped.
std::string short_commit(const GitInfo& git);
// "2026-11-22T03:15:00Z" -> "2026-11-22 03:15". Not escaped.
std::string short_time(std::string_view iso);
// A point's details, several lines (the tooltip). Not escaped.
std::string point_details(const store::KeyedPoint& point);

}  // namespace cgbench::report
