// Console rendering of `cgbench history`: aligned tables, the change of each cost against
// the previous ok result, dirty work trees marked with a "+" after the commit.

#include <fmt/format.h>

#include "report/history_reporter.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// "2026-11-22T03:15:00Z" -> "2026-11-22 03:15".
std::string short_time(std::string_view iso) {
    if (iso.size() < 16 || iso[10] != 'T') return util::printable(iso);
    return fmt::format("{} {}", iso.substr(0, 10), iso.substr(11, 5));
}

std::string commit_cell(const GitInfo& git) {
    if (!git.commit) return "-";
    return util::printable(git.commit->substr(0, 10)) + (git.dirty.value_or(false) ? "+" : "");
}

std::string number(const std::optional<std::uint64_t>& v) {
    return v ? util::with_commas(*v) : "-";
}

class ConsoleHistoryReporter final : public HistoryReporter {
  public:
    std::string series(std::string_view name, const std::vector<store::SeriesPoint>& points,
                       const RenderOptions& o) const override {
        TextTable t({{"run", Align::Left},
                     {"date", Align::Left},
                     {"commit", Align::Left},
                     {"status", Align::Left},
                     {"cost", Align::Right},
                     {"Ir", Align::Right},
                     {"change", Align::Right}});
        bool dirty = false;
        for (const auto& p : points) {
            dirty = dirty || p.git.dirty.value_or(false);
            t.add_row({util::printable(p.run_id), short_time(p.started), commit_cell(p.git),
                       std::string(to_string(p.status)), number(p.cost), number(p.ir),
                       p.change ? util::percent(*p.change) : "-"});
        }
        std::string out = fmt::format("{}: {} result{}\n\n", util::printable(name), points.size(),
                                      points.size() == 1 ? "" : "s");
        out += t.render(0, o.color);
        if (dirty) out += "\n+ measured with uncommitted changes\n";
        return out;
    }

    std::string runs(const std::vector<store::RunRow>& rows,
                     const RenderOptions& o) const override {
        TextTable t({{"run", Align::Left},
                     {"date", Align::Left},
                     {"commit", Align::Left},
                     {"branch", Align::Left},
                     {"benchmarks", Align::Right},
                     {"failed", Align::Right}});
        for (const auto& r : rows) {
            t.add_row({util::printable(r.id), short_time(r.started), commit_cell(r.git),
                       util::printable(r.git.branch.value_or("-")), std::to_string(r.benchmarks),
                       std::to_string(r.failed)});
        }
        if (rows.empty()) return "no runs recorded yet\n";
        return t.render(0, o.color);
    }
};

}  // namespace

std::unique_ptr<HistoryReporter> make_console_history_reporter() {
    return std::make_unique<ConsoleHistoryReporter>();
}

}  // namespace cgbench::report
