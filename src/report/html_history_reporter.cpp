// The HTML history page: head (CSP allowing only the page's own script by its hash), header
// and controls, fingerprints, the steps table, the summary table with sparklines, then a
// section per benchmark (numbers, chart, legend, results table), the data block for the
// script, and the script.

#include "report/html_history_reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/result_json.hpp"
#include "history/environment.hpp"
#include "report/escape.hpp"
#include "report/history_text.hpp"
#include "report/html_page.hpp"
#include "report/html_script.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using html::Benchmark;
using html::e;
using html::Page;
using ojson = nlohmann::ordered_json;

// Default branch blue, then the others.
constexpr std::string_view kPalette[] = {"#0969da", "#e16f24", "#8250df", "#1b7c83",
                                         "#9a6700", "#bf3989", "#57606a", "#116329"};

constexpr std::string_view kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;
  background:#fff;max-width:1100px;margin:0 auto;padding:12px 24px 40px}
h1{font-size:22px;margin:10px 0 4px}
h2{font-size:17px;margin:18px 0 2px;overflow-wrap:anywhere}
section h2 a{color:inherit;text-decoration:none}
a{color:#0969da}
p{margin:4px 0}
[hidden]{display:none!important}
.meta,.note,.legend{color:#59636e}
.meta,.legend{font-size:13px}
.note{max-width:860px}
#controls{margin:8px 0;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}
#controls input[type=search]{font:inherit;padding:3px 8px;width:260px}
.control{font-size:13px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0}
th,td{padding:3px 10px;border-bottom:1px solid #e1e4e8;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600;white-space:nowrap}
.num{text-align:right;white-space:nowrap}
td.name{overflow-wrap:anywhere;max-width:420px}
td.key,code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.up{color:#cf222e}.down{color:#1a7f37}.failed{color:#cf222e;font-weight:600}
.badge{font-size:11px;padding:0 5px;border-radius:8px;border:1px solid}
.badge.code{color:#cf222e;border-color:#cf222e}
.badge.environment{color:#9a6700;border-color:#9a6700}
.badge.wobble{color:#59636e;border-color:#d1d9e0}
.moved{color:#59636e;font-size:12px}
.flame{margin:8px 0;overflow-x:auto}.flame svg{max-width:100%;height:auto}
.flame figcaption{font-weight:600;overflow-wrap:anywhere}
section.bench{border-top:1px solid #d1d9e0;margin-top:20px;padding-top:10px}
.stats b{font-size:16px}
svg.chart{display:block;width:100%;max-width:860px;height:auto;margin:6px 0 2px}
svg.spark{display:block;width:120px;height:28px}
svg text{font-family:system-ui,sans-serif;fill:#1f2328}
svg .tick{font-size:11px;fill:#59636e}
svg a .tick{fill:#0969da}
svg .caption{font-size:11px;fill:#59636e}
svg .value{font-size:12px;font-weight:600}
svg .epochlabel{font-size:11px;fill:#59636e}
svg .steplabel{font-size:11px;font-weight:600}
svg .steplabel.code{fill:#cf222e}svg .steplabel.environment{fill:#9a6700}
svg .steplabel.wobble{fill:#59636e}
svg .stepmark.code{fill:#cf222e}svg .stepmark.environment{fill:#9a6700}
svg .stepmark.wobble{fill:#818b98}
svg .stepguide{stroke-width:1;stroke-dasharray:2 3}
svg .stepguide.code{stroke:#cf222e}svg .stepguide.environment{stroke:#9a6700}
svg .stepguide.wobble{stroke:#818b98}
svg .grid{stroke:#eaeef2}svg .grid.zero{stroke:#818b98}
svg .axis{stroke:#818b98}
svg .break{stroke:#59636e;stroke-width:1.5;stroke-dasharray:5 3}
svg .line{fill:none;stroke-width:2}
svg .dot{stroke:#fff;stroke-width:1}
svg .dot:hover{stroke:#1f2328;stroke-width:2}
svg .dot.dirty{fill:#fff;stroke-width:1.5}
svg .failed{fill:none;stroke:#cf222e;stroke-width:2.5}
svg .hover{stroke:#1f2328;stroke-width:1;stroke-dasharray:1 2;display:none}
.sw{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 8px}
.tip{position:absolute;z-index:10;background:#fff;border:1px solid #d1d9e0;border-radius:6px;
  padding:6px 9px;font-size:12px;box-shadow:0 3px 12px rgba(0,0,0,.15);max-width:420px;
  pointer-events:none;overflow-wrap:anywhere}
.tip .subject{color:#1f2328;margin:2px 0}.tip .hint{color:#59636e}
details{margin:6px 0}
summary{cursor:pointer;color:#0969da}
)css";

std::string palette_css(std::size_t branches) {
    std::string css;
    for (std::size_t i = 0; i < std::max<std::size_t>(branches, 1); ++i) {
        const auto colour = kPalette[i % std::size(kPalette)];
        css += fmt::format(
            "svg .line.br{0}{{stroke:{1}}}svg .dot.br{0}{{fill:{1}}}svg .dot.dirty.br{0}"
            "{{fill:#fff;stroke:{1}}}svg .value.br{0}{{fill:{1}}}.sw.br{0}{{background:{1}}}"
            ".tip .br{0}{{color:{1}}}.hide-br{0} .br{0}{{display:none}}\n",
            i, colour);
    }
    return css;
}

// Branches in page order: the default first, then as first measured.
std::map<std::string, std::size_t> branch_colours(const HtmlHistory& in) {
    std::vector<std::pair<std::size_t, std::string>> first;  // first run, branch
    std::map<std::string, std::size_t> seen;
    for (const auto& s : in.history->series) {
        for (const auto& r : s.results) {
            if (history::is_probe(in.history->run_of(r))) continue;  // on no line
            const auto b = history::branch_of(in.history->run_of(r));
            auto [it, added] = seen.emplace(b, r.run);
            if (!added) it->second = std::min(it->second, r.run);
        }
    }
    for (const auto& [b, run] : seen)
        first.emplace_back(b == in.default_branch ? 0 : run + 1, b);
    std::sort(first.begin(), first.end());
    std::map<std::string, std::size_t> out;
    for (const auto& [run, b] : first)
        out.emplace(b, out.size());
    return out;
}

// At most `max` benchmarks on the page, those with steps first (what a reader looks for).
void keep_benchmarks(Page& page, std::size_t max) {
    auto& all = page.benchmarks;
    if (all.size() <= max) return;
    std::stable_partition(all.begin(), all.end(),
                          [](const Benchmark& b) { return !b.chart.steps.empty(); });
    for (auto it = all.begin() + static_cast<std::ptrdiff_t>(max); it != all.end(); ++it)
        page.anchors.erase(it->chart.name);
    page.left_out = all.size() - max;
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(max), all.end());
}

Page make_page(const HtmlHistory& in) {
    Page page{in, {}, {}, {}};
    page.context = {in.history, &in.commits, branch_colours(in), in.commit_url, in.axis, {}};
    const auto keys = history::run_keys(*in.history);
    std::map<std::string_view, std::vector<const history::BenchmarkStep*>> steps;
    for (const auto& b : in.steps) {
        for (const auto& ev : b.events) {
            for (const auto& s : ev.steps)
                steps[s.benchmark].push_back(&s);
        }
    }
    for (const auto& s : in.history->series) {
        if (s.results.empty()) continue;
        Benchmark b;
        b.anchor = fmt::format("b{}", page.benchmarks.size());
        b.series = &s;
        b.chart.name = s.name;
        b.chart.id = b.anchor;
        b.chart.lines = history::lines_of(*in.history, s, keys, in.default_branch);
        b.chart.dirty = history::dirty_results(*in.history, s);
        if (const auto it = steps.find(s.name); it != steps.end()) b.chart.steps = it->second;
        page.anchors.emplace(s.name, b.anchor);
        page.benchmarks.push_back(std::move(b));
    }
    keep_benchmarks(page, in.max_benchmarks);
    return page;
}

std::string head() {
    return fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src '{}'\">\n<meta name=\"generator\" "
        "content=\"cgbench\">\n<title>cgbench history</title>\n<style>",
        page_script_hash());
}

std::size_t count_runs(const Page& page) {
    std::set<std::size_t> runs;
    for (const auto& b : page.benchmarks) {
        for (const auto& r : b.series->results)
            runs.insert(r.run);
    }
    return runs.size();
}

std::string header(const Page& page) {
    const auto& in = page.in;
    const auto n = page.benchmarks.size();
    const auto runs = count_runs(page);
    std::string out = "<h1 id=\"top\">cgbench history</h1>\n<p class=\"meta\">";
    out += fmt::format("<code>{}</code> · {} benchmark{} · {} run{} · the last {} results of each",
                       e(in.database), n, n == 1 ? "" : "s", runs, runs == 1 ? "" : "s", in.limit);
    if (in.filter) out += fmt::format(" · --filter <code>{}</code>", e(*in.filter));
    out += fmt::format(" · generated {}</p>\n", e(short_time(in.generated)));
    if (page.left_out > 0) {
        out += fmt::format(
            "<p class=\"note\">{} more benchmark{} not shown: the page shows {} (those with "
            "steps first); choose with <code>--filter</code> or raise "
            "<code>--max-benchmarks</code>.</p>\n",
            util::with_commas(page.left_out), page.left_out == 1 ? " is" : "s are",
            util::with_commas(n));
    }
    out += fmt::format(
        "<p class=\"note\">Cost is the weighted count of L1, last-level and RAM accesses that "
        "Valgrind's Cachegrind simulated: deterministic, lower is better. {} One line per "
        "branch; results measured with uncommitted changes are hollow points off the lines. "
        "Changes compare results of one fingerprint only: where it changes, a dashed rule "
        "starts a new epoch and the line breaks. Results are in commit order (first-parent "
        "ancestry, as recorded with each run) and dated by their commit. Hover a chart for the "
        "commit and values (or a point, without script), or open the table under it.</p>\n",
        in.axis == Axis::Relative
            ? "The charts show each result in % against the first result of its fingerprint, "
              "on an axis at least ±1% wide, so a small change looks small (<code>--axis "
              "zero</code> draws the cost from zero)."
            : "The charts draw the cost from zero, so every change appears at its true size "
              "against the whole (<code>--axis relative</code> shows small changes in %).");
    return out;
}

// What to say about the order of the results, once.
std::string ordering(const Page& page) {
    std::string out;
    for (const auto& n : ordering_notes(page.in.history->ordering))
        out += "<p class=\"note\">Note: " + e(n) + "</p>\n";
    return out;
}

std::string controls(const Page& page) {
    std::string out = "<div id=\"controls\"></div>\n<p class=\"legend\">Branches:";
    std::vector<std::pair<std::size_t, std::string>> order;
    for (const auto& [b, i] : page.context.branches)
        order.emplace_back(i, b);
    std::sort(order.begin(), order.end());
    for (const auto& [i, b] : order) {
        out += fmt::format("<span class=\"sw br{}\"></span>{}{}", i, e(b),
                           b == page.in.default_branch ? " (default)" : "");
    }
    return out + " · ○ uncommitted changes · <span class=\"failed\">×</span> failed</p>\n";
}

// Every fingerprint of the results shown, numbered in order of first use (the charts' epoch
// labels use these numbers), when there is more than one.
std::string fingerprints(const Page& page, std::map<std::string, std::size_t>& numbers) {
    const auto& h = *page.in.history;
    std::vector<std::size_t> first_run;  // per number
    std::vector<std::size_t> fingerprint;
    for (const auto& b : page.benchmarks) {
        for (const auto& r : b.series->results) {
            const auto& key = h.key_of(r.run);
            auto [it, added] = numbers.emplace(key, numbers.size() + 1);
            if (added) {
                first_run.push_back(r.run);
                fingerprint.push_back(h.runs[r.run].fingerprint);
            } else if (r.run < first_run[it->second - 1]) {
                first_run[it->second - 1] = r.run;
            }
        }
    }
    if (numbers.size() < 2) return {};
    std::string out =
        "<h2 id=\"fingerprints\">Fingerprints</h2>\n<p class=\"note\">Results measured with "
        "different fingerprints are not comparable, and nothing here compares them.</p>\n"
        "<table>\n<tr><th>#</th><th>fingerprint</th><th>first used</th><th>measured with</th>"
        "</tr>\n";
    for (std::size_t i = 0; i < fingerprint.size(); ++i) {
        const auto& run = h.runs[first_run[i]];
        std::string with = history::describe(h.fingerprints[fingerprint[i]]);
        if (i > 0) {
            with +=
                " (vs #" + std::to_string(i) + ": " +
                util::join(
                    h.fingerprints[fingerprint[i - 1]].differences(h.fingerprints[fingerprint[i]]),
                    "; ") +
                ")";
        }
        out += fmt::format(
            "<tr><td>{}</td><td class=\"key\">{}</td><td>{} <code>{}</code></td><td>{}</td></tr>\n",
            i + 1, e(h.keys[fingerprint[i]]), e(run_date(run)),
            html::commit_link(page, run.git.commit, short_commit(run.git.commit)), e(with));
    }
    return out + "</table>\n";
}

// The newest ok result of the benchmark's first line (the default branch when it has one),
// its change against the previous one and against the first of its epoch.
struct Latest {
    const history::Result* latest = nullptr;
    std::optional<double> vs_previous;
    std::optional<double> vs_epoch;
    const history::Result* epoch_first = nullptr;
    bool epoch_start = false;  // the latest is the first ok result of its epoch, after another
    std::string branch;
};

Latest latest_of(const Page& page, const Benchmark& b) {
    Latest out;
    if (b.chart.lines.empty()) return out;
    const auto& line = b.chart.lines.front();
    out.branch = line.branch;
    if (line.points.empty()) return out;
    out.latest = &line.points.back();
    const auto changes = history::changes_of(*page.in.history, line.points);
    out.vs_previous = changes.back();
    const auto epochs = history::epochs_of(*page.in.history, line.points);
    out.epoch_start =
        epochs.size() > 1 && out.latest->cost &&
        std::none_of(line.points.begin() + static_cast<std::ptrdiff_t>(epochs.back().first),
                     line.points.end() - 1,
                     [](const history::Result& r) { return r.cost.has_value(); });
    for (std::size_t i = epochs.back().first; i < line.points.size() && out.latest->cost; ++i) {
        const auto& p = line.points[i];
        if (!p.cost || &p == out.latest) continue;
        out.epoch_first = &p;
        out.vs_epoch = history::relative_change(*p.cost, *out.latest->cost);
        break;
    }
    return out;
}

// The benchmark's number of steps, and a note when its moves are mostly wobble.
std::string steps_cell(const Page& page, const Benchmark& b) {
    std::string out = std::to_string(b.chart.steps.size());
    if (const auto* w = html::noisy(page, b.chart.name)) {
        out += fmt::format("<br><span class=\"moved\">{}</span>", e(noise_note(*w)));
    }
    return out;
}

std::string summary_table(const Page& page) {
    std::string out =
        "<h2 id=\"benchmarks\">Benchmarks</h2>\n<table class=\"summary\">\n<tr><th>benchmark</th>"
        "<th>branch</th><th class=\"num\">latest cost</th><th class=\"num\">Ir</th>"
        "<th class=\"num\">vs previous</th><th class=\"num\">since epoch start</th>"
        "<th class=\"num\">steps</th><th>trend</th><th class=\"num\">results</th></tr>\n";
    for (const auto& b : page.benchmarks) {
        const auto l = latest_of(page, b);
        out += fmt::format(
            "<tr data-name=\"{}\"><td class=\"name\"><a href=\"#{}\">{}</a></td><td>{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
            "<td class=\"num\">{}</td></tr>\n",
            e(b.chart.name), b.anchor, e(b.chart.name), e(l.branch),
            l.latest ? html::cost_html(*l.latest) : "-",
            l.latest && l.latest->ir ? util::with_commas(*l.latest->ir) : "-",
            l.epoch_start ? "<span class=\"moved\">new fingerprint</span>"
                          : html::change_html(l.vs_previous),
            html::change_html(l.vs_epoch), steps_cell(page, b), sparkline(b.chart, page.context),
            b.series->results.size());
    }
    return out + "</table>\n";
}

std::string stats_line(const Page& page, const Benchmark& b) {
    const auto l = latest_of(page, b);
    std::string out = "<p class=\"stats\">";
    if (l.latest) {
        const auto& run = page.in.history->run_of(*l.latest);
        out += fmt::format("latest on {} <b>{}</b>", e(l.branch), html::cost_html(*l.latest));
        if (l.latest->ir) out += fmt::format(" (Ir {})", util::with_commas(*l.latest->ir));
        out += fmt::format(" · {}, commit <code>{}</code>", e(run_date(run)),
                           html::commit_link(page, run.git.commit, short_commit(run.git.commit)));
        if (l.epoch_start) {
            out += " · the first result of a new fingerprint: nothing before it compares";
        } else {
            out += fmt::format(" · {} vs previous", html::change_html(l.vs_previous));
        }
        if (l.epoch_first) {
            const auto& first = page.in.history->run_of(*l.epoch_first);
            out += fmt::format(" · {} since the start of its epoch (<code>{}</code>)",
                               html::change_html(l.vs_epoch), e(short_commit(first.git.commit)));
        }
    }
    const auto failed = std::count_if(b.series->results.begin(), b.series->results.end(),
                                      [](const history::Result& r) { return !r.cost; });
    out += fmt::format(" · {} result{}", b.series->results.size(),
                       b.series->results.size() == 1 ? "" : "s");
    if (failed > 0) out += fmt::format(", <span class=\"failed\">{} failed</span>", failed);
    if (!b.chart.steps.empty()) {
        out +=
            fmt::format(", {} step{}", b.chart.steps.size(), b.chart.steps.size() == 1 ? "" : "s");
    }
    if (const auto* w = html::noisy(page, b.chart.name)) {
        out += fmt::format(
            " · <b>{}</b>: {} of its {} moves were within that or undone by the "
            "next result, so they are noise, not steps",
            e(noise_note(*w)), w->noise, w->moves);
    }
    return out + "</p>\n";
}

std::string section(const Page& page, const Benchmark& b, std::string& data) {
    auto chart = history_chart(b.chart, page.context);
    if (!data.empty()) data += ",";
    data += chart.data;
    std::string out = fmt::format(
        "<section class=\"bench\" id=\"{0}\" data-name=\"{1}\">\n<h2><a "
        "href=\"#{0}\">{1}</a></h2>\n",
        b.anchor, e(b.chart.name));
    out += stats_line(page, b);
    // The chart's id lets the script find it; it is the only attribute added to the svg.
    out += chart.svg.insert(5, fmt::format("id=\"chart-{}\" ", b.anchor)) + "\n";
    if (chart.step_labels < b.chart.steps.size()) {
        out += fmt::format(
            "<p class=\"legend\">{} step label{} had no room above the chart: "
            "their markers have tooltips, and the steps table lists them.</p>\n",
            b.chart.steps.size() - chart.step_labels,
            b.chart.steps.size() - chart.step_labels == 1 ? "" : "s");
    }
    out += html::results_table(page, b);
    return out + "<p class=\"legend\"><a href=\"#top\">back to the top</a></p>\n</section>\n";
}

// The data block the script reads: branches, runs (id, time, commit, dirty), subjects, the
// commit URL and every chart's positions and values.
std::string data_block(const Page& page, const std::string& charts) {
    const auto& h = *page.in.history;
    ojson branches = ojson::array();
    std::vector<std::pair<std::size_t, std::string>> order;
    for (const auto& [b, i] : page.context.branches)
        order.emplace_back(i, b);
    std::sort(order.begin(), order.end());
    for (const auto& [i, b] : order)
        branches.push_back(b);
    std::set<std::size_t> used;
    for (const auto& b : page.benchmarks) {
        for (const auto& r : b.series->results)
            used.insert(r.run);
    }
    ojson runs = ojson::object();
    ojson commits = ojson::object();
    for (const auto r : used) {
        const auto& run = h.runs[r];
        runs[std::to_string(r)] = ojson::array({run.id, run_date(run), json_or_null(run.git.commit),
                                                run.git.dirty.value_or(false) ? 1 : 0});
        if (run.git.commit) {
            if (const auto it = page.in.commits.find(*run.git.commit);
                it != page.in.commits.end()) {
                commits[*run.git.commit] = it->second.subject;
            }
        }
    }
    ojson doc{{"branches", std::move(branches)},
              {"url", json_or_null(page.in.commit_url)},
              {"runs", std::move(runs)},
              {"commits", std::move(commits)}};
    std::string text = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text.pop_back();  // the closing brace: the charts follow
    return "<script type=\"application/json\" id=\"cgbench-data\">" +
           script_safe_json(text + ",\"charts\":[" + charts + "]}") + "</script>\n";
}

// The flame graphs given, each under its escaped name; nothing when none.
std::string embedded_flames_section(const std::vector<EmbeddedFlame>& flames) {
    if (flames.empty()) return {};
    std::string out =
        "<div id=\"flame-graphs\">\n<h2>Flame graphs</h2>\n<p class=\"note\">Widths: the "
        "head's cost; red: costlier than the base, blue: cheaper (hover a frame for its "
        "numbers).</p>\n";
    for (const auto& f : flames) {
        out += fmt::format("<figure class=\"flame\">\n<figcaption>{}</figcaption>\n{}</figure>\n",
                           markup_escape(f.name), f.svg);
    }
    return out + "</div>\n";
}

}  // namespace

std::string render_html_history(const HtmlHistory& in) {
    auto page = make_page(in);
    std::map<std::string, std::size_t> numbers;
    const auto prints = fingerprints(page, numbers);
    page.context.fingerprint_numbers = numbers;
    std::string out = head() + std::string(kStyle) + palette_css(page.context.branches.size()) +
                      "</style>\n</head>\n<body>\n";
    out += header(page) + controls(page) + ordering(page) + prints;
    out += html::steps_table(page);
    out += embedded_flames_section(in.flames);
    out += page.benchmarks.empty() ? "<p>No results.</p>\n" : summary_table(page);
    std::string charts;
    for (const auto& b : page.benchmarks)
        out += section(page, b, charts);
    out += data_block(page, charts);
    out += "<script>" + std::string(page_script()) + "</script>\n";
    return out + "</body>\n</html>\n";
}

}  // namespace cgbench::report
