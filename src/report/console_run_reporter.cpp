// Console rendering of a run: a summary table, event details for a single benchmark (or
// with -v), spreads of unrepeatable benchmarks, failures with their stderr, warnings.

#include <fmt/format.h>
#include <string.h>

#include <algorithm>

#include "report/reporter.hpp"
#include "report/run_summary.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string paint(const RenderOptions& o, std::string_view code, std::string_view text) {
    return ansi(o.color, code, text);
}

// Every metric the result has, with what it means; the cost last, with the formula that
// weighs the hits.
std::string details(const BenchmarkResult& b) {
    TextTable t({{"event", Align::Left}, {"count", Align::Right}, {"meaning", Align::Left}});
    for (const auto& m : metrics::kMetrics) {
        if (m.key == metrics::Metric::cost()) continue;
        if (const auto v = metric_value(b, m.key)) {
            t.add_row({std::string(m.name), util::with_commas(*v), std::string(m.description)});
        }
    }
    t.add_row({std::string(metrics::Metric::cost().name()), util::with_commas(b.cost),
               cost_formula(b.weights)});
    return fmt::format("\n{}:\n{}", util::printable(b.name), t.render(2));
}

// Each process of a multi-process run: what it cost and how it counts.
std::string process_table(const BenchmarkResult& b) {
    TextTable t({{"#", Align::Right},
                 {"process", Align::Left},
                 {"Ir", Align::Right},
                 {"cost", Align::Right},
                 {"", Align::Left}});
    for (std::size_t i = 0; i < b.processes.size(); ++i) {
        const auto& p = b.processes[i];
        std::vector<std::string> notes;
        if (p.parent) notes.push_back(fmt::format("child of {}", *p.parent + 1));
        if (p.forked) notes.push_back("forked (includes its parent's counts up to the fork)");
        if (!p.counted) notes.push_back("not counted (--processes main)");
        if (!p.profiled) notes.push_back("no profile");
        if (p.signal) {
            const char* abbrev = sigabbrev_np(*p.signal);
            notes.push_back(abbrev ? fmt::format("killed by SIG{}", abbrev)
                                   : fmt::format("killed by signal {}", *p.signal));
        }
        t.add_row({std::to_string(i + 1), util::printable(p.command),
                   p.events.has(metrics::Event::Ir)
                       ? util::with_commas(p.events.get(metrics::Event::Ir))
                       : "-",
                   p.profiled ? util::with_commas(p.cost) : "-", util::join(notes, "; ")});
    }
    return fmt::format("\n{} ran {} processes:\n{}", util::printable(b.name), b.processes.size(),
                       t.render(2));
}

std::string spread_table(const BenchmarkResult& b) {
    TextTable t({{"event", Align::Left},
                 {"min", Align::Right},
                 {"max", Align::Right},
                 {"spread", Align::Right}});
    for (const auto& s : b.spread) {
        const double rel =
            s.min == 0 ? 1.0 : static_cast<double>(s.max - s.min) / static_cast<double>(s.min);
        // Enough digits to show the spread: ~1,000 of 450 M is 0.00022%, not 0.00%.
        std::string spread = util::precise_percent(rel);
        if (spread.front() == '+') spread.erase(0, 1);
        t.add_row({std::string(metrics::info(s.event).name), util::with_commas(s.min),
                   util::with_commas(s.max), spread});
    }
    return fmt::format("\n{} differed across {} runs:\n{}", util::printable(b.name), b.runs,
                       t.render(2));
}

std::string failure(const BenchmarkResult& b, const RenderOptions& o) {
    std::string out = fmt::format("\n{} {}: {}\n", paint(o, "31;1", "✗"), util::printable(b.name),
                                  util::printable(b.error));
    if (!b.stderr_tail.empty()) {
        out += "  last lines of its stderr:\n";
        for (const auto line : util::split(b.stderr_tail, '\n')) {
            out += "    " + util::printable(line) + "\n";
        }
    }
    return out;
}

class ConsoleRunReporter final : public RunReporter {
  public:
    std::string render(const RunResult& run, const RenderOptions& o) const override {
        std::vector<std::pair<std::string, Align>> cols;
        const bool branch_sim = run.fingerprint.branch_sim;
        for (const auto& title : summary_titles(branch_sim)) {
            cols.emplace_back(title, cols.size() < 2 ? Align::Left : Align::Right);
        }
        // The process count, when some benchmark ran more than one.
        const bool counts = std::any_of(run.benchmarks.begin(), run.benchmarks.end(),
                                        [](const auto& b) { return !b.processes.empty(); });
        if (counts) cols.emplace_back("procs", Align::Right);
        cols.emplace_back("wall", Align::Right);
        TextTable table(std::move(cols));
        for (const auto& b : run.benchmarks) {
            auto cells = summary_cells(b, branch_sim);
            cells[0] = util::printable(cells[0]);
            if (counts)
                cells.push_back(std::to_string(std::max<std::size_t>(b.processes.size(), 1)));
            cells.push_back(fmt::format("{:.2f}s", b.wall_seconds));
            table.add_row(std::move(cells));
        }
        std::string out = paint(o, "2", provenance(run.fingerprint)) + "\n\n";
        out += table.render(0, o.color);
        for (const auto& b : run.benchmarks) {
            const bool detail = o.verbose || run.benchmarks.size() == 1;
            if (b.status == BenchStatus::Ok && detail) out += details(b);
            if (!b.processes.empty() && (detail || b.status != BenchStatus::Ok)) {
                out += process_table(b);
            }
            if (!b.spread.empty()) out += spread_table(b);
            if (b.status != BenchStatus::Ok) out += failure(b, o);
            for (const auto& w : b.warnings) {
                out += fmt::format("{} {}: {}\n", paint(o, "33", "warning:"),
                                   util::printable(b.name), util::printable(w));
            }
        }
        for (const auto& w : run.warnings)
            out += fmt::format("{} {}\n", paint(o, "33", "warning:"), util::printable(w));
        if (const auto hint = no_line_info_hint(without_line_info(run)); !hint.empty())
            out += fmt::format("note: {}\n", util::printable(hint));
        return out;
    }
};

}  // namespace

std::unique_ptr<RunReporter> make_console_run_reporter() {
    return std::make_unique<ConsoleRunReporter>();
}

}  // namespace cgbench::report
