// Console rendering of `cgbench backfill`: the commits with what became of each, then the
// totals and where their history is read.

#include <fmt/format.h>

#include <algorithm>

#include "report/backfill_reporter.hpp"
#include "report/history_text.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::report {

std::string_view to_string(BackfillOutcome o) {
    switch (o) {
        case BackfillOutcome::Measured:
            return "measured";
        case BackfillOutcome::BenchmarkFailed:
            return "benchmark failed";
        case BackfillOutcome::Stored:
            return "in the history";
        case BackfillOutcome::BuildFailed:
            return "build failed";
        case BackfillOutcome::CannotMeasure:
            return "cannot measure";
    }
    return "measured";
}

bool recorded(BackfillOutcome o) {
    return o == BackfillOutcome::Measured || o == BackfillOutcome::BenchmarkFailed ||
           o == BackfillOutcome::Stored;
}

std::size_t count(const BackfillReport& r, BackfillOutcome o) {
    return static_cast<std::size_t>(std::count_if(r.commits.begin(), r.commits.end(),
                                                  [o](const auto& c) { return c.outcome == o; }));
}

namespace {

std::string date_cell(const std::string& committed) {
    const auto t = util::parse_iso8601(committed);
    return t ? short_time(util::iso8601_at(static_cast<std::time_t>(*t))) : "-";
}

std::string outcome_cell(const BackfillCommit& c, bool color) {
    const char* style =
        recorded(c.outcome) ? (c.outcome == BackfillOutcome::Stored ? "2" : "") : "31";
    return ansi(color, style, std::string(to_string(c.outcome)));
}

std::string totals(const BackfillReport& r) {
    std::vector<std::string> parts;
    for (const auto o :
         {BackfillOutcome::Measured, BackfillOutcome::BenchmarkFailed, BackfillOutcome::Stored,
          BackfillOutcome::BuildFailed, BackfillOutcome::CannotMeasure}) {
        if (const auto n = count(r, o)) parts.push_back(fmt::format("{} {}", n, to_string(o)));
    }
    std::string out =
        fmt::format("{} commit{}: {}", r.commits.size(), r.commits.size() == 1 ? "" : "s",
                    parts.empty() ? "none" : util::join(parts, ", "));
    out += fmt::format(" ({:.1f} s)\n", r.seconds);
    std::vector<std::string> skipped;
    for (const auto& c : r.commits) {
        if (!recorded(c.outcome)) skipped.push_back(short_commit(c.commit));
    }
    if (!skipped.empty()) {
        out += fmt::format(
            "skipped, nothing recorded: {} (see detail; a later backfill tries "
            "them again)\n",
            util::join(skipped, ", "));
    }
    if (r.interrupted)
        out += "interrupted: the commits after the last one listed were not looked at\n";
    return out;
}

class ConsoleBackfillReporter final : public BackfillReporter {
  public:
    std::string render(const BackfillReport& r, const RenderOptions& o) const override {
        std::string out = fmt::format(
            "backfill: {} of {} first-parent commit{} of {} on {}, fingerprint {}\n",
            r.commits.size(), r.in_range, r.in_range == 1 ? "" : "s", util::printable(r.range),
            util::printable(r.branch), util::printable(r.fingerprint));
        if (r.shallow) {
            out +=
                "  the clone is shallow: commits beyond its boundary are not listed (git fetch "
                "--unshallow)\n";
        }
        TextTable t({{"commit", Align::Left},
                     {"committed", Align::Left},
                     {"outcome", Align::Left},
                     {"time", Align::Right},
                     {"subject", Align::Left},
                     {"detail", Align::Left}});
        for (const auto& c : r.commits) {
            t.add_row({short_commit(c.commit), date_cell(c.committed), outcome_cell(c, o.color),
                       c.seconds > 0 ? fmt::format("{:.1f}s", c.seconds) : "",
                       util::printable(c.subject), util::printable(c.detail)});
        }
        out += t.render(2, o.color) + "\n" + totals(r);
        if (count(r, BackfillOutcome::Measured) + count(r, BackfillOutcome::BenchmarkFailed) > 0) {
            out += fmt::format("their history: cgbench steps --branch {}  (or report --html)\n",
                               util::printable(util::shell_quote(r.branch)));
        }
        return out;
    }
};

}  // namespace

std::unique_ptr<BackfillReporter> make_console_backfill_reporter() {
    return std::make_unique<ConsoleBackfillReporter>();
}

}  // namespace cgbench::report
