// The tables of the HTML history page: the steps found, and each benchmark's results.

#include <fmt/format.h>

#include <algorithm>

#include "config/commit_url.hpp"
#include "report/escape.hpp"
#include "report/history_text.hpp"
#include "report/html_page.hpp"
#include "util/strings.hpp"

namespace cgbench::report::html {

namespace {

constexpr std::size_t kMaxEvents = 200;     // steps table rows; `cgbench steps` lists them all
constexpr std::size_t kAllResultsUpTo = 100;  // more: only the results where something changed

struct EventRef {
    const history::BranchSteps* branch;
    const history::StepEvent* event;
};

std::string step_item(const Page& page, const history::BenchmarkStep& s) {
    const auto label = std::string(history::to_string(s.step.label));
    const auto it = page.anchors.find(s.benchmark);
    const std::string name = it == page.anchors.end()
                                 ? e(s.benchmark)
                                 : fmt::format("<a href=\"#{}\">{}</a>", it->second, e(s.benchmark));
    std::string out = fmt::format(
        "<span class=\"item\" data-name=\"{}\">{} {} <span class=\"badge {}\">{}{}</span>",
        e(s.benchmark), name, change_html(s.step.change), label, label,
        s.step.pending ? "*" : "");
    if (s.explanation) out += " <span class=\"moved\">" + e(history::summarize(*s.explanation));
    if (s.explanation && !s.explanation->functions.empty()) {
        const auto& f = s.explanation->functions.front();
        out += fmt::format(" · {} {}{}", e(f.name), f.delta > 0 ? "+" : "-",
                           util::with_commas(static_cast<std::uint64_t>(std::abs(f.delta))));
    }
    if (s.explanation) out += "</span>";
    return out + "</span>";
}

}  // namespace

std::string steps_table(const Page& page) {
    const auto& h = *page.in.history;
    std::vector<EventRef> events;
    for (const auto& b : page.in.steps) {
        for (const auto& ev : b.events)
            events.push_back({&b, &ev});
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const EventRef& a, const EventRef& b) { return a.event->run > b.event->run; });
    std::string out = "<h2 id=\"steps\">Steps</h2>\n";
    if (events.empty()) {
        return out + "<p class=\"note\">No lasting change in the results shown: every benchmark "
                     "measured the same at each commit of each branch, or moved only within "
                     "its wobble.</p>\n";
    }
    out += fmt::format(
        "<p class=\"note\">{} commit{} where benchmarks changed for good, newest first "
        "(<b>code</b>: same fingerprint, beyond the benchmark's wobble; <b>environment</b>: the "
        "fingerprint changed; <b>*</b>: at the newest result, whether it lasts shows at the next "
        "commit).</p>\n<table class=\"steps\">\n<tr><th>commit</th><th>date</th><th>branch</th>"
        "<th>subject</th><th>what changed</th></tr>\n",
        events.size(), events.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < std::min(events.size(), kMaxEvents); ++i) {
        const auto& ev = *events[i].event;
        const auto& run = h.runs[ev.run];
        std::string subject;
        if (run.git.commit) {
            if (const auto it = page.in.commits.find(*run.git.commit); it != page.in.commits.end()) {
                subject = it->second.subject;
            }
        }
        std::string items;
        for (const auto& s : ev.steps)
            items += (items.empty() ? "" : "<br>") + step_item(page, s);
        out += fmt::format(
            "<tr class=\"event\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>\n",
            commit_link(page, run.git.commit, short_commit(run.git.commit)), e(run_date(run)),
            e(events[i].branch->branch), e(subject), items);
    }
    out += "</table>\n";
    if (events.size() > kMaxEvents) {
        out += fmt::format("<p class=\"note\">{} older ones: see <code>cgbench steps</code>.</p>\n",
                           events.size() - kMaxEvents);
    }
    return out;
}

namespace {

struct Row {
    const history::Result* result;
    std::string branch;
    std::optional<double> change;
    bool shown = true;
};

}  // namespace

std::string results_table(const Page& page, const Benchmark& b) {
    const auto& h = *page.in.history;
    std::vector<Row> rows;
    for (const auto& line : b.chart.lines) {
        const auto changes = history::changes_of(h, line.points);
        const auto& pts = line.points;
        // Something changed from i - 1 to i: the cost, a failure, or the fingerprint.
        const auto changed = [&](std::size_t i) {
            return i > 0 && i < pts.size() &&
                   (!pts[i].cost || !pts[i - 1].cost || *pts[i].cost != *pts[i - 1].cost ||
                    h.key_of(pts[i].run) != h.key_of(pts[i - 1].run));
        };
        for (std::size_t i = 0; i < pts.size(); ++i) {
            // Each change is listed with the result before it: what it changed from.
            const bool shown = i == 0 || i + 1 == pts.size() || changed(i) || changed(i + 1);
            rows.push_back({&pts[i], line.branch, changes[i], shown});
        }
    }
    for (const auto& p : b.chart.dirty)
        rows.push_back({&p, history::branch_of(h.run_of(p)) + " (uncommitted)", std::nullopt, true});
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& x, const Row& y) { return x.result->run > y.result->run; });
    const bool all = rows.size() <= kAllResultsUpTo;
    const auto listed = all ? rows.size()
                            : static_cast<std::size_t>(std::count_if(
                                  rows.begin(), rows.end(), [](const Row& r) { return r.shown; }));
    std::string out = fmt::format(
        "<details><summary>{}</summary>\n<table>\n<tr><th>run</th><th>committed</th>"
        "<th>commit</th><th>branch</th><th>status</th><th class=\"num\">cost</th>"
        "<th class=\"num\">Ir</th><th class=\"num\">change</th><th>fingerprint</th>"
        "<th>measured</th></tr>\n",
        rows.size() == 1 ? std::string("The result")
        : all            ? fmt::format("All {} results, newest commit first", rows.size())
                         : fmt::format("{} of {} results, newest commit first: where something "
                                                  "changed, and the first and latest of each branch",
                                       listed, rows.size()));
    for (const auto& r : rows) {
        if (!all && !r.shown) continue;
        const auto& run = h.run_of(*r.result);
        out += fmt::format(
            "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td>"
            "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"key\">{}</td><td>{}</td></tr>\n",
            e(run.id), e(commit_date(run).empty() ? "-" : commit_date(run)),
            commit_link(page, run.git.commit, run.git.commit.value_or("-").substr(0, 12)),
            e(r.branch), to_string(r.result->status), cost_html(*r.result),
            r.result->ir ? util::with_commas(*r.result->ir) : "-", change_html(r.change),
            e(h.key_of(r.result->run)), e(short_time(run.started)));
    }
    return out + "</table>\n</details>\n";
}

const history::BenchmarkWobble* noisy(const Page& page, std::string_view name) {
    for (const auto& b : page.in.steps) {
        for (const auto& w : b.wobble) {
            if (w.benchmark == name && !w.repeatable()) return &w;
        }
    }
    return nullptr;
}

std::string e(std::string_view text) {
    return markup_escape(text);
}

std::string commit_link(const Page& page, const std::optional<std::string>& commit,
                        std::string_view text) {
    if (!commit || !page.in.commit_url) return e(text);
    return fmt::format("<a href=\"{}\">{}</a>", e(config::commit_url(*page.in.commit_url, *commit)),
                       e(text));
}

std::string change_html(const std::optional<double>& change) {
    if (!change) return "-";
    const char* cls = *change > 0 ? "up" : *change < 0 ? "down" : "same";
    return fmt::format("<span class=\"{}\">{}</span>", cls, e(util::precise_percent(*change)));
}

std::string cost_html(const history::Result& r) {
    if (r.cost) return util::with_commas(*r.cost);
    return fmt::format("<span class=\"failed\">{}</span>", to_string(r.status));
}

}  // namespace cgbench::report::html
