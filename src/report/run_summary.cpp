#include "report/run_summary.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace cgbench::report {

std::vector<std::string> summary_titles() {
    return {"benchmark", "status", "Ir", "L1 hits", "LL hits", "RAM hits", "cost"};
}

std::vector<std::string> summary_cells(const BenchmarkResult& b) {
    const auto num = [](std::uint64_t v) { return util::with_commas(v); };
    std::vector<std::string> cells = {b.name, status_label(b)};
    if (b.status != BenchStatus::Ok) {
        cells.insert(cells.end(), {"-", "-", "-", "-", "-"});
        return cells;
    }
    cells.push_back(b.events.has(metrics::Event::Ir) ? num(b.events.get(metrics::Event::Ir)) : "-");
    if (b.derived) {
        cells.insert(cells.end(),
                     {num(b.derived->l1_hits), num(b.derived->ll_hits), num(b.derived->ram_hits)});
    } else {
        cells.insert(cells.end(), {"-", "-", "-"});
    }
    cells.push_back(num(b.cost));
    return cells;
}

std::string provenance(const Fingerprint& f) {
    std::string cpu = f.cpu_baseline;
    if (f.selection.available) {
        cpu += fmt::format(" (glibc {}, {})", f.selection.glibc_version, f.selection.platform);
    }
    return fmt::format("{} · valgrind {} · geometry {} · cpu {} · weights {} {}", f.tool,
                       f.valgrind_version, f.geometry.name, cpu, f.weights.name,
                       f.weights.describe());
}

std::string cost_formula(const metrics::Weights& w) {
    if (w.instructions_only) return "Ir";
    return fmt::format("{}·L1 + {}·LL + {}·RAM", w.l1, w.ll, w.ram);
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
