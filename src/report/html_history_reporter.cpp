// The HTML history page: header, fingerprint legend, summary table with sparklines, then per
// benchmark its numbers, chart, legend and a table of every result (readable without hover).
// No script: tooltips are SVG <title>s, the tables are <details>.

#include "report/html_history_reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report/escape.hpp"
#include "report/history_plot.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using store::BenchmarkSeries;
using store::KeyedPoint;

constexpr std::string_view kPalette[] = {"#0969da", "#e16f24", "#8250df",
                                         "#1b7c83", "#9a6700", "#bf3989"};

constexpr std::string_view kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;
  background:#fff;max-width:1000px;margin:0 auto;padding:12px 24px 40px}
h1{font-size:22px;margin:10px 0 4px}
h2{font-size:17px;margin:0 0 2px;overflow-wrap:anywhere}
h2 a{color:inherit;text-decoration:none}
a{color:#0969da}
p{margin:4px 0}
.meta,.note,.legend{color:#59636e}
.meta,.legend{font-size:13px}
.note{max-width:760px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0}
th,td{padding:3px 10px;border-bottom:1px solid #e1e4e8;text-align:left;vertical-align:middle}
th{background:#f6f8fa;font-weight:600;white-space:nowrap}
.num{text-align:right;white-space:nowrap}
td.name{overflow-wrap:anywhere;max-width:420px}
td.key,code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.up{color:#cf222e}.down{color:#1a7f37}.failed{color:#cf222e;font-weight:600}
section.bench{border-top:1px solid #d1d9e0;margin-top:20px;padding-top:16px}
.stats b{font-size:16px}
svg.chart{display:block;width:100%;max-width:760px;height:auto;margin:8px 0 2px}
svg.spark{display:block;width:120px;height:28px}
svg text{font-family:system-ui,sans-serif;fill:#1f2328}
svg .tick{font-size:11px;fill:#59636e}
svg .caption{font-size:12px;fill:#59636e}
svg .value{font-size:12px;font-weight:600}
svg .breaklabel{font-size:11px;fill:#59636e}
svg .grid{stroke:#eaeef2}
svg .axis{stroke:#818b98}
svg .break{stroke:#59636e;stroke-width:1.5;stroke-dasharray:4 3}
svg .line{fill:none;stroke-width:2}
svg .dot{stroke:#fff;stroke-width:1}
svg .dot:hover{stroke:#1f2328;stroke-width:2}
svg .dot.dirty{fill:#fff;stroke-width:2}
svg .failed{fill:none;stroke:#cf222e;stroke-width:2.5}
.sw{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 10px}
details{margin:6px 0}
summary{cursor:pointer;color:#0969da}
)css";

std::string palette_css() {
    std::string css;
    for (std::size_t i = 0; i < std::size(kPalette); ++i) {
        css += fmt::format(
            "svg .line.k{0}{{stroke:{1}}}svg .dot.k{0}{{fill:{1}}}"
            "svg .dot.dirty.k{0}{{fill:#fff;stroke:{1}}}.sw.k{0}{{background:{1}}}\n",
            i, kPalette[i]);
    }
    return css;
}

std::string e(std::string_view text) {
    return markup_escape(text);
}

std::string anchor(std::size_t index) {
    return fmt::format("b{}", index);
}

std::string colour_of(const FingerprintColours& colours, std::string_view key) {
    const auto it = colours.find(key);
    return fmt::format("k{}", it == colours.end() ? 0 : it->second % std::size(kPalette));
}

// Colours in the order the keys were first recorded, so the oldest measurement is k0.
FingerprintColours assign_colours(const std::vector<BenchmarkSeries>& all) {
    std::map<std::string, std::string> first_seen;  // key -> earliest start
    for (const auto& s : all) {
        for (const auto& k : s.points) {
            auto [it, added] = first_seen.emplace(k.fingerprint_key, k.point.started);
            if (!added) it->second = std::min(it->second, k.point.started);
        }
    }
    std::vector<std::pair<std::string, std::string>> order;
    for (const auto& [key, started] : first_seen)
        order.emplace_back(started, key);
    std::sort(order.begin(), order.end());
    FingerprintColours colours;
    for (const auto& [started, key] : order)
        colours.emplace(key, colours.size());
    return colours;
}

// A change as a coloured percentage: up (more expensive) red, down green, under 0.1% plain.
std::string change_html(const std::optional<double>& change) {
    if (!change) return "-";
    const char* cls = *change > 0.001 ? "up" : *change < -0.001 ? "down" : "same";
    return fmt::format("<span class=\"{}\">{}</span>", cls, util::percent(*change));
}

std::string cost_html(const KeyedPoint& k) {
    if (k.point.cost) return util::with_commas(*k.point.cost);
    return fmt::format("<span class=\"failed\">{}</span>", to_string(k.point.status));
}

std::string number(const std::optional<std::uint64_t>& v) {
    return v ? util::with_commas(*v) : "-";
}

std::string header(const HtmlHistory& h, std::size_t benchmarks, std::size_t runs) {
    std::string out = "<h1 id=\"top\">cgbench history</h1>\n<p class=\"meta\">";
    out += fmt::format("<code>{}</code> · {} benchmark{} · {} run{} · the last {} results of each",
                       e(h.database), benchmarks, benchmarks == 1 ? "" : "s", runs,
                       runs == 1 ? "" : "s", h.limit);
    if (h.filter) out += fmt::format(" · --filter <code>{}</code>", e(*h.filter));
    out += fmt::format(" · generated {}</p>\n", e(short_time(h.generated)));
    out +=
        "<p class=\"note\">Cost is the weighted count of L1, last-level and RAM accesses that "
        "Valgrind's Cachegrind simulated: deterministic, lower is better. Changes compare "
        "results measured with the same fingerprint only; where the fingerprint changes, the "
        "line breaks. Hover a point for its details, or open the table under each chart.</p>\n";
    return out;
}

// Every fingerprint with its colour, when there is more than one.
std::string fingerprint_legend(const std::vector<BenchmarkSeries>& all,
                               const FingerprintColours& colours) {
    if (colours.size() < 2) return {};
    std::map<std::string_view, std::size_t> results;
    for (const auto& s : all) {
        for (const auto& k : s.points)
            ++results[k.fingerprint_key];
    }
    std::vector<std::pair<std::size_t, std::string_view>> order;
    for (const auto& [key, index] : colours)
        order.emplace_back(index, key);
    std::sort(order.begin(), order.end());
    std::string out = "<p class=\"legend\">Measured with " + std::to_string(colours.size()) +
                      " different fingerprints, oldest first:";
    for (const auto& [index, key] : order) {
        const auto n = results[key];
        out += fmt::format("<span class=\"sw {}\"></span><code>{}</code> ({} result{})",
                           colour_of(colours, key), e(key), n, n == 1 ? "" : "s");
    }
    return out + "</p>\n";
}

std::string summary_table(const std::vector<BenchmarkSeries>& all,
                          const FingerprintColours& colours) {
    std::string out =
        "<table class=\"summary\">\n<tr><th>benchmark</th><th class=\"num\">latest cost</th>"
        "<th class=\"num\">Ir</th><th class=\"num\">vs previous</th>"
        "<th class=\"num\">vs first shown</th><th>trend</th><th class=\"num\">results</th></tr>\n";
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& s = all[i];
        const auto sum = summarize(s);
        out += fmt::format(
            "<tr><td class=\"name\"><a href=\"#{}\">{}</a></td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td>{}</td><td class=\"num\">{}</td></tr>\n",
            anchor(i), e(s.name), cost_html(*sum.latest), number(sum.latest->point.ir),
            change_html(sum.vs_previous), change_html(sum.vs_first), sparkline(s, colours),
            s.points.size());
    }
    return out + "</table>\n";
}

// "2026-11-22 03:15, commit <code>0123456</code>" (the commit only when there is one).
std::string when(const store::SeriesPoint& p) {
    std::string out = e(short_time(p.started));
    if (p.git.commit) out += fmt::format(", commit <code>{}</code>", e(short_commit(p.git)));
    return out;
}

std::string stats_line(const BenchmarkSeries& s, const SeriesSummary& sum) {
    const auto& latest = *sum.latest;
    std::string out = fmt::format("<p class=\"stats\">latest <b>{}</b>", cost_html(latest));
    if (latest.point.ir) out += fmt::format(" (Ir {})", util::with_commas(*latest.point.ir));
    out += " · " + when(latest.point);
    if (sum.vs_previous || sum.vs_first) {
        out += fmt::format(" · {} vs previous · {} vs first shown", change_html(sum.vs_previous),
                           change_html(sum.vs_first));
        if (sum.first) out += " (" + when(sum.first->point) + ")";
    } else if (latest.point.cost && sum.fingerprints > 1) {
        out += " · nothing comparable before it (new fingerprint)";
    }
    out += fmt::format(" · {} result{}", s.points.size(), s.points.size() == 1 ? "" : "s");
    if (sum.failed > 0) out += fmt::format(", <span class=\"failed\">{} failed</span>", sum.failed);
    if (sum.fingerprints > 1) out += fmt::format(", {} fingerprints", sum.fingerprints);
    return out + "</p>\n";
}

// What the chart's marks mean, only those it has.
std::string chart_legend(const BenchmarkSeries& s, const SeriesSummary& sum,
                         const FingerprintColours& colours) {
    std::set<std::pair<std::string, std::string_view>> keys;  // by colour
    bool dirty = false;
    for (const auto& k : s.points) {
        keys.emplace(colour_of(colours, k.fingerprint_key), k.fingerprint_key);
        dirty = dirty || (k.point.cost && k.point.git.dirty.value_or(false));
    }
    std::string out = "<p class=\"legend\">";
    for (const auto& [colour, key] : keys) {
        out +=
            fmt::format("<span class=\"sw {}\"></span>fingerprint <code>{}</code>", colour, e(key));
    }
    if (dirty) out += " · ○ measured with uncommitted changes";
    if (sum.failed > 0) out += " · <span class=\"failed\">×</span> failed (no cost)";
    if (keys.size() > 1) out += " · ┆ fingerprint changed: not comparable across it";
    return out + "</p>\n";
}

std::string results_table(const BenchmarkSeries& s) {
    std::string out = fmt::format(
        "<details><summary>{}</summary>\n<table>\n<tr><th>run</th><th>date</th>"
        "<th>commit</th><th>branch</th><th>status</th><th class=\"num\">cost</th>"
        "<th class=\"num\">Ir</th><th class=\"num\">change</th><th>fingerprint</th></tr>\n",
        s.points.size() == 1 ? std::string("The result")
                             : fmt::format("All {} results, newest first", s.points.size()));
    for (auto it = s.points.rbegin(); it != s.points.rend(); ++it) {
        const auto& p = it->point;
        out += fmt::format(
            "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td>"
            "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"key\">{}</td></tr>\n",
            e(p.run_id), e(short_time(p.started)), e(p.git.commit.value_or("-").substr(0, 12)),
            e(p.git.branch.value_or("-")), to_string(p.status), cost_html(*it), number(p.ir),
            change_html(p.change), e(it->fingerprint_key));
    }
    return out + "</table>\n</details>\n";
}

std::string section(const BenchmarkSeries& s, std::size_t index,
                    const FingerprintColours& colours) {
    const auto sum = summarize(s);
    std::string out =
        fmt::format("<section class=\"bench\" id=\"{0}\">\n<h2><a href=\"#{0}\">{1}</a></h2>\n",
                    anchor(index), e(s.name));
    out += stats_line(s, sum);
    out += history_chart(s, colours) + "\n";
    out += chart_legend(s, sum, colours);
    out += results_table(s);
    return out + "<p class=\"legend\"><a href=\"#top\">back to the summary</a></p>\n</section>\n";
}

std::size_t count_runs(const std::vector<BenchmarkSeries>& all) {
    std::set<std::string_view> ids;
    for (const auto& s : all) {
        for (const auto& k : s.points)
            ids.insert(k.point.run_id);
    }
    return ids.size();
}

}  // namespace

std::string render_html_history(const HtmlHistory& h) {
    std::vector<BenchmarkSeries> shown;
    for (const auto& s : h.series) {
        if (!s.points.empty()) shown.push_back(s);
    }
    const auto colours = assign_colours(shown);
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">\n<meta name=\"generator\" content=\"cgbench\">\n"
        "<title>cgbench history</title>\n<style>";
    out += std::string(kStyle) + palette_css() + "</style>\n</head>\n<body>\n";
    out += header(h, shown.size(), count_runs(shown));
    out += fingerprint_legend(shown, colours);
    out += shown.empty() ? "<p>No results.</p>\n" : summary_table(shown, colours);
    for (std::size_t i = 0; i < shown.size(); ++i)
        out += section(shown[i], i, colours);
    return out + "</body>\n</html>\n";
}

}  // namespace cgbench::report
