#include "report/run_summary.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// The metrics of the summary table, chosen: the instructions, the hits the cost weighs, with
// branch simulation the mispredictions it weighs (Bcm), the cost. Every other metric is in the
// details (console -v) and the result file.
std::vector<metrics::Metric> summary_metrics(bool branch_sim) {
    std::vector<metrics::Metric> out = {
        metrics::Metric::event(metrics::Event::Ir), metrics::Metric::hits(metrics::Hits::L1),
        metrics::Metric::hits(metrics::Hits::LL), metrics::Metric::hits(metrics::Hits::Ram)};
    if (branch_sim) out.push_back(metrics::Metric::event(metrics::Event::Bcm));
    out.push_back(metrics::Metric::cost());
    return out;
}

}  // namespace

std::vector<std::string> summary_titles(bool branch_sim) {
    std::vector<std::string> titles = {"benchmark", "status"};
    for (const auto m : summary_metrics(branch_sim))
        titles.emplace_back(m.label());
    return titles;
}

std::vector<std::string> summary_cells(const BenchmarkResult& b, bool branch_sim) {
    std::vector<std::string> cells = {b.name, status_label(b)};
    for (const auto m : summary_metrics(branch_sim)) {
        const auto v = metric_value(b, m);
        cells.push_back(v ? util::with_commas(*v) : "-");
    }
    return cells;
}

std::string provenance(const Fingerprint& f) {
    std::string cpu = f.cpu_baseline;
    if (f.selection.available) {
        cpu += fmt::format(" (glibc {}, {})", f.selection.glibc_version, f.selection.platform);
    }
    // Every field may come from a result file or a weights file: printable, so no escape
    // sequence in one reaches a terminal.
    return util::printable(fmt::format("{} · valgrind {} · geometry {} · cpu {} · weights {} {}",
                                       f.tool, f.valgrind_version, f.geometry.name, cpu,
                                       f.weights.name, f.weights.describe()));
}

std::string cost_formula(const metrics::Weights& w) {
    if (w.instructions_only) return "Ir";
    const auto hits = fmt::format("{}·L1 + {}·LL + {}·RAM", w.l1, w.ll, w.ram);
    return w.mispredict == 0 ? hits : fmt::format("{} + {}·Bcm", hits, w.mispredict);
}

std::string status_label(const BenchmarkResult& b) {
    switch (b.status) {
        case BenchStatus::Ok:
            return "ok";
        case BenchStatus::Failed:
            return "FAILED";
        case BenchStatus::Timeout:
            return "TIMEOUT";
    }
    return "FAILED";
}

}  // namespace cgbench::report
