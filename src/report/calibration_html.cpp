// `cgbench calibrate --html FILE`: one self-contained page (inline CSS and SVG, no script,
// nothing loaded from elsewhere; the Content-Security-Policy forbids both anyway) with the
// weight sets compared, the charts and every kernel's numbers. Every name is escaped.

#include <fmt/format.h>

#include "report/calibration_plot.hpp"
#include "report/calibration_report.hpp"
#include "report/escape.hpp"
#include "report/run_summary.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using calibrate::Calibration;

// One colour per weight set; the second half repeats the first dashed (presets, then fits, then
// the same with the terms measured besides).
constexpr std::string_view kColours[] = {"#0969da", "#8250df", "#e16f24",
                                         "#1b7c83", "#bf3989", "#6e7781"};
constexpr std::size_t kMaxSets = 2 * std::size(kColours);

constexpr std::string_view kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;
  background:#fff;max-width:1000px;margin:0 auto;padding:12px 24px 40px}
h1{font-size:22px;margin:10px 0 4px}
h2{font-size:17px;margin:22px 0 4px}
p{margin:4px 0}
.meta,.legend{color:#59636e;font-size:13px}
.note{color:#59636e;max-width:760px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0}
th,td{padding:3px 10px;border-bottom:1px solid #e1e4e8;text-align:left}
th{background:#f6f8fa;font-weight:600;white-space:nowrap}
.num{text-align:right;white-space:nowrap}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
svg.chart{display:block;width:100%;max-width:760px;height:auto;margin:8px 0 2px}
svg text{font-family:system-ui,sans-serif;fill:#1f2328}
svg .tick{font-size:11px;fill:#59636e}
svg .caption{font-size:12px;fill:#59636e}
svg .grid{stroke:#eaeef2}
svg .axis{stroke:#818b98}
svg .diagonal{stroke:#818b98;stroke-dasharray:4 3}
svg .line{fill:none;stroke-width:2}
svg .dot{stroke:#fff;stroke-width:1}
svg .dot:hover{stroke:#1f2328;stroke-width:2}
svg .line.m{stroke:#1f2328;stroke-width:2.5}svg .dot.m{fill:#1f2328}
.sw{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 10px}
.sw.m{background:#1f2328}
details{margin:6px 0}
summary{cursor:pointer;color:#0969da}
)css";

std::string e(std::string_view text) {
    return markup_escape(text);
}

std::string palette_css() {
    std::string css;
    for (std::size_t i = 0; i < kMaxSets; ++i) {
        const auto colour = kColours[i % std::size(kColours)];
        css += fmt::format(
            "svg .line.w{0}{{stroke:{1}}}svg .dot.w{0}{{fill:{1}}}"
            ".sw.w{0}{{background:{1}}}\n",
            i, colour);
        if (i >= std::size(kColours)) {
            css += fmt::format(
                "svg .line.w{}{{stroke-dasharray:6 3}}svg .dot.w{}{{fill-opacity:.55}}\n", i, i);
        }
    }
    return css;
}

std::string header(const Calibration& c) {
    const auto& x = c.context;
    std::string out = "<h1>cgbench calibration</h1>\n<p class=\"meta\">";
    out += e(simulated_with(x.fingerprint)) + "</p>\n<p class=\"meta\">";
    if (!x.cpu_model.empty()) out += e(x.cpu_model) + " · ";
    out += fmt::format("native {} time, ", e(calibrate::to_string(x.native.clock)));
    out += x.pinned_cpu ? fmt::format("pinned to CPU {}", *x.pinned_cpu) : "not pinned";
    out += fmt::format(", median of {} runs per kernel · {} steps per loop",
                       x.native.rounds * x.native.repeat, util::with_commas(x.steps));
    out += fmt::format(" · {} CPU{}", x.cpus, x.cpus == 1 ? "" : "s");
    if (x.load_before && x.load_after) {
        out += fmt::format(", load average {:.2f} before the native runs, {:.2f} after",
                           *x.load_before, *x.load_after);
    }
    return out + fmt::format(" · {}</p>\n", e(x.started));
}

std::string agreement_cells(const calibrate::Agreement& a) {
    return fmt::format(
        "<td class=\"num\">{:.3f}</td><td class=\"num\">{:.3f}</td>"
        "<td class=\"num\">{:.1f}%</td>",
        a.pearson_r, a.r_squared, a.median_abs_error * 100);
}

std::string sets_table(const Calibration& c) {
    const bool programs = !c.programs.empty();
    std::string out =
        "<table>\n<tr><th>weights</th><th class=\"num\">L1 / LL / RAM</th><th class=\"num\">r"
        "</th><th class=\"num\">R²</th><th class=\"num\">median error</th>";
    if (programs) {
        out +=
            "<th class=\"num\">programs: r</th><th class=\"num\">R²</th><th class=\"num\">"
            "median error</th>";
    }
    out += "</tr>\n";
    for (std::size_t s = 0; s < c.sets.size(); ++s) {
        const auto& w = c.sets[s];
        out += fmt::format("<tr><td><span class=\"sw w{}\"></span>{}</td><td class=\"num\">{}</td>",
                           s % kMaxSets, e(w.name), e(describe_weights(w)));
        out += agreement_cells(w.agreement);
        if (programs && w.programs) out += agreement_cells(*w.programs);
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

// The colours of a chart: the measured line (not in the scatter chart, whose x is the
// measurement) and each weight set.
std::string legend(const Calibration& c, bool measured = true) {
    std::string out = "<p class=\"legend\">";
    if (measured) out += "<span class=\"sw m\"></span>measured";
    for (std::size_t s = 0; s < c.sets.size(); ++s)
        out += fmt::format("<span class=\"sw w{}\"></span>{}", s % kMaxSets, e(c.sets[s].name));
    return out + "</p>\n";
}

// Every kernel (or program) with its counts and each set's error; `predicted` gives set s's
// prediction for row i.
template <typename Predicted>
std::string kernels_table(const Calibration& c, const std::vector<calibrate::KernelResult>& rows,
                          std::string_view title, Predicted predicted) {
    const auto unit = calibrate::unit_of(c.context.native.clock);
    std::string out = fmt::format(
        "<details><summary>{} ({})</summary>\n<table>\n<tr><th>name</th>"
        "<th class=\"num\">time {}</th><th class=\"num\">spread</th><th class=\"num\">L1 hits"
        "</th><th class=\"num\">LL hits</th><th class=\"num\">RAM hits</th>",
        title, rows.size(), unit);
    if (c.model.l2) out += "<th class=\"num\">L2 hits</th>";
    if (c.model.mispredicts) out += "<th class=\"num\">mispredicts</th>";
    for (const auto& s : c.sets)
        out += fmt::format("<th class=\"num\">{}</th>", e(s.name));
    out += "</tr>\n";
    const auto cell = [](std::uint64_t v) {
        return fmt::format("<td class=\"num\">{}</td>", util::with_commas(v));
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& k = rows[i];
        out += fmt::format(
            "<tr><td>{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">±{:.1f}%"
            "</td>",
            e(k.kernel.name), calibrate::in_units(c.context.native.clock, k.timing.median),
            k.timing.spread * 100);
        out += cell(k.hits.l1_hits) + cell(k.hits.ll_hits) + cell(k.hits.ram_hits);
        if (c.model.l2) out += cell(k.l2_hits.value_or(0));
        if (c.model.mispredicts) out += cell(k.mispredicts.value_or(0));
        for (std::size_t s = 0; s < c.sets.size(); ++s) {
            out += fmt::format("<td class=\"num\">{}</td>",
                               relative_error(predicted(s, i), k.timing.median));
        }
        out += "</tr>\n";
    }
    return out + "</table>\n</details>\n";
}

std::string walk_section(const Calibration& c, std::string_view family, std::string_view title) {
    const auto chart = walk_chart(c, family);
    if (chart.empty()) return "";
    return fmt::format("<h2>{}</h2>\n{}\n{}", title, chart, legend(c));
}

}  // namespace

std::string render_calibration_html(const Calibration& c) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">\n<meta name=\"generator\" content=\"cgbench\">\n"
        "<title>cgbench calibration</title>\n<style>";
    out += std::string(kStyle) + palette_css() + "</style>\n</head>\n<body>\n";
    out += header(c);
    out +=
        "<p class=\"note\">Each kernel ran natively and under Cachegrind. A weight set's "
        "predicted time is its cost times one scale factor, the one that fits the sweep "
        "best; r is the correlation of cost and time, the median error the typical "
        "relative miss. <b>fitted</b> is what <code>--out FILE</code> writes.</p>\n";
    out += sets_table(c);
    out += walk_section(c, "walk/linear", "Memory walk, linear");
    out += walk_section(c, "walk/random", "Memory walk, random");
    out += "<h2>Predicted against measured, every kernel</h2>\n" + scatter_chart(c) + "\n" +
           legend(c, false);
    out += kernels_table(c, c.kernels, "Every kernel", [&](std::size_t s, std::size_t i) {
        return c.sets[s].agreement.predicted[i];
    });
    if (!c.programs.empty()) {
        out +=
            "<h2>Held-out programs</h2>\n<p class=\"note\">Timed and counted like the sweep, "
            "never fitted on: each weight set predicts their times with the scale it has on "
            "the sweep.</p>\n" +
            programs_chart(c) + "\n" + legend(c, false);
        out += kernels_table(c, c.programs, "Every program", [&](std::size_t s, std::size_t i) {
            return c.sets[s].programs->predicted[i];
        });
    }
    return out + "</body>\n</html>\n";
}

}  // namespace cgbench::report
