// Console rendering of `cgbench history`: aligned tables, the change of each cost against the
// previous ok result of its epoch, a line where each new fingerprint starts, dirty work trees
// marked with a "+" after the commit.

#include <fmt/format.h>

#include "history/environment.hpp"
#include "history/lines.hpp"
#include "report/history_reporter.hpp"
#include "report/history_text.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string commit_cell(const GitInfo& git) {
    if (!git.commit) return "-";
    return util::printable(git.commit->substr(0, 10)) + (git.dirty.value_or(false) ? "+" : "");
}

// The branch, or what recorded a run that is on no branch's line; a commit measured on no
// branch is named as `steps` names its line.
std::string branch_cell(const GitInfo& git, const std::string& recorded_by) {
    if (recorded_by == kRecordedByBisect) return "(bisect probe)";
    if (!git.branch && git.commit) return std::string(history::kNoBranch);
    return util::printable(git.branch.value_or("-"));
}

std::string committed_cell(const GitInfo& git) {
    history::Run run;
    run.git = git;
    const auto date = commit_date(run);
    return date.empty() ? "-" : date;
}

std::string number(const std::optional<std::uint64_t>& v) {
    return v ? util::with_commas(*v) : "-";
}

// The line announcing epoch `e` (index into view.epochs), > 0.
std::string epoch_line(const SeriesView& v, std::size_t e) {
    const auto& h = *v.history;
    const auto& before = h.fingerprint_of(v.points[v.epochs[e - 1].last]);
    const auto& after = h.fingerprints[v.epochs[e].fingerprint];
    return fmt::format(
        "-- epoch {}: fingerprint {} ({}); not compared with the results above", e + 1,
        util::printable(h.keys[v.epochs[e].fingerprint]),
        util::printable(util::join(history::environment_changes(before, after), "; ")));
}

// `table` (a header line, then one line per point) with the epoch lines inserted.
std::string with_epoch_lines(const std::string& table, const SeriesView& v) {
    const auto lines = util::split(table, '\n');
    std::string out;
    std::size_t e = 1;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i > 0 && e < v.epochs.size() && v.epochs[e].first == i - 1) {
            out += epoch_line(v, e++) + "\n";
        }
        if (!lines[i].empty() || i + 1 < lines.size()) out += std::string(lines[i]) + "\n";
    }
    return out;
}

class ConsoleHistoryReporter final : public HistoryReporter {
  public:
    std::string series(const SeriesView& v, const RenderOptions& o) const override {
        TextTable t({{"run", Align::Left},
                     {"committed", Align::Left},
                     {"commit", Align::Left},
                     {"branch", Align::Left},
                     {"status", Align::Left},
                     {"cost", Align::Right},
                     {"Ir", Align::Right},
                     {"change", Align::Right},
                     {"measured", Align::Left}});
        bool dirty = false;
        for (std::size_t i = 0; i < v.points.size(); ++i) {
            const auto& p = v.points[i];
            const auto& run = v.history->run_of(p);
            dirty = dirty || run.git.dirty.value_or(false);
            t.add_row({util::printable(run.id), committed_cell(run.git), commit_cell(run.git),
                       branch_cell(run.git, run.recorded_by), std::string(to_string(p.status)),
                       number(p.cost), number(p.ir),
                       v.changes[i] ? util::percent(*v.changes[i]) : "-", short_time(run.started)});
        }
        std::string out = fmt::format("{}: {} result{}", util::printable(v.name), v.points.size(),
                                      v.points.size() == 1 ? "" : "s");
        if (v.epochs.size() > 1) out += fmt::format(" in {} epochs", v.epochs.size());
        out += ", in commit order\n\n" + with_epoch_lines(t.render(0, o.color), v);
        if (dirty) out += "\n+ measured with uncommitted changes\n";
        const auto notes = ordering_notes(v.history->ordering);
        if (!notes.empty()) out += "\n";
        for (const auto& n : notes)
            out += "note: " + n + "\n";
        return out;
    }

    std::string runs(const std::vector<history::RunRow>& rows,
                     const RenderOptions& o) const override {
        TextTable t({{"run", Align::Left},
                     {"measured", Align::Left},
                     {"commit", Align::Left},
                     {"committed", Align::Left},
                     {"branch", Align::Left},
                     {"benchmarks", Align::Right},
                     {"failed", Align::Right},
                     {"fingerprint", Align::Left}});
        for (const auto& r : rows) {
            t.add_row({util::printable(r.id), short_time(r.started), commit_cell(r.git),
                       committed_cell(r.git), branch_cell(r.git, r.recorded_by),
                       std::to_string(r.benchmarks), std::to_string(r.failed),
                       util::printable(r.fingerprint_key)});
        }
        if (rows.empty()) return "no runs recorded yet\n";
        return t.render(0, o.color);
    }
};

}  // namespace

std::unique_ptr<HistoryReporter> make_console_history_reporter() {
    return std::make_unique<ConsoleHistoryReporter>();
}

SeriesView view_series(const history::History& h, const history::Series& series) {
    SeriesView v{series.name, &h, series.results, {}, {}};
    v.changes = history::changes_of(h, v.points);
    v.epochs = history::epochs_of(h, v.points);
    return v;
}

}  // namespace cgbench::report
