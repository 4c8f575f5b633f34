#include "report/html_project_index.hpp"

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/history_text.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string index_text(std::string_view text) {
    return markup_escape(text);
}

constexpr std::string_view kIndexStyle =
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;"
    "color:#222}h1{font-size:1.4em}.meta{color:#666}table{border-collapse:collapse;width:100%}"
    "th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #ddd;vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}.up{color:#b00}"
    ".none{color:#888}code{font-size:.95em}";

std::string latest_cell(const ProjectSummary& p) {
    if (!p.latest) return "<td class=\"none\">no runs</td>";
    const auto& r = *p.latest;
    std::string out = "<td>" + index_text(short_time(r.started));
    if (r.git.commit)
        out += fmt::format(" · <code>{}</code>", index_text(r.git.commit->substr(0, 10)));
    if (r.git.branch) out += " on " + index_text(*r.git.branch);
    if (r.failed > 0) {
        out += fmt::format(" · <span class=\"up\">{} failed</span>", r.failed);
    }
    return out + "</td>";
}

std::string row(const ProjectSummary& p) {
    const std::string name = p.page.empty() ? index_text(p.name)
                                            : fmt::format("<a href=\"{}\">{}</a>",
                                                          index_text(p.page), index_text(p.name));
    const std::string regressions =
        p.regressions > 0 ? fmt::format("<span class=\"up\">{}</span>", p.regressions) : "0";
    return fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>{}<td>{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
        name, util::with_commas(p.benchmarks), util::with_commas(p.runs), latest_cell(p),
        index_text(p.default_branch), p.steps, regressions);
}

}  // namespace

std::string render_html_project_index(const ProjectIndex& index) {
    std::string out = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">\n<meta name=\"generator\" content=\"cgbench\">\n"
        "<title>cgbench projects</title>\n<style>{}</style>\n</head>\n<body>\n"
        "<h1>cgbench projects</h1>\n<p class=\"meta\"><code>{}</code> · {} project{} · "
        "generated {}</p>\n",
        kIndexStyle, index_text(index.database), index.projects.size(),
        index.projects.size() == 1 ? "" : "s", index_text(short_time(index.generated)));
    out +=
        "<p class=\"meta\">Each project links to its own page. Steps are the lasting moves "
        "of cost on the default branch, as <code>cgbench steps</code> finds them; "
        "regressions are those that made it more expensive.</p>\n"
        "<table>\n<thead><tr><th>Project</th><th class=\"n\">Benchmarks</th>"
        "<th class=\"n\">Runs</th><th>Latest run</th><th>Default branch</th>"
        "<th class=\"n\">Steps</th><th class=\"n\">Regressions</th></tr></thead>\n<tbody>\n";
    for (const auto& p : index.projects)
        out += row(p);
    return out + "</tbody>\n</table>\n</body>\n</html>\n";
}

}  // namespace cgbench::report
