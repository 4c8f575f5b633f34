// Console rendering of `cgbench bisect`: what was looked at, then the answer.

#include <fmt/format.h>

#include "report/bisect_reporter.hpp"
#include "report/function_report.hpp"
#include "report/history_text.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string subject_of(const BisectReport& r, const std::string& commit) {
    const auto it = r.commit_info.find(commit);
    return it == r.commit_info.end() ? std::string() : util::printable(it->second.subject);
}

std::string probes(const BisectReport& r, bool color) {
    TextTable t({{"commit", Align::Left},
                 {"from", Align::Left},
                 {"verdict", Align::Left},
                 {"detail", Align::Left},
                 {"time", Align::Right}});
    for (const auto& p : r.probes) {
        const auto verdict = p.verdict ? std::string(to_string(*p.verdict)) : "-";
        t.add_row({short_commit(p.commit), p.source,
                   ansi(color, p.verdict == history::Verdict::Moved ? "31" : "", verdict),
                   util::printable(p.detail), p.seconds > 0 ? fmt::format("{:.1f}s", p.seconds) : ""});
    }
    return t.render(2, color);
}

std::string answer(const BisectReport& r, bool color) {
    if (!r.moved) {
        std::string out = "BAD does not differ from GOOD beyond the threshold: nothing to bisect\n";
        if (!r.largest) return out;
        const auto& l = *r.largest;
        if (l.threshold.empty()) return out + "every benchmark measures exactly as at GOOD\n";
        const auto magnitude = static_cast<std::uint64_t>(l.delta < 0 ? -l.delta : l.delta);
        return out + fmt::format("the largest move: {} {} ({}{}); --threshold {} would bisect it\n",
                                 util::printable(l.benchmark), util::precise_percent(l.change),
                                 l.delta < 0 ? "-" : "+", util::with_commas(magnitude),
                                 l.threshold);
    }
    const auto& commit = *r.first_moved;
    std::string out;
    if (!r.skipped.empty()) {
        std::vector<std::string> range;
        for (const auto& s : r.skipped)
            range.push_back(short_commit(s));
        range.push_back(short_commit(commit));
        out += fmt::format("the first commit beyond the threshold is one of {} (the others "
                           "could not be built or measured)\n",
                           util::join(range, ", "));
    } else {
        out += "first commit beyond the threshold:\n";
    }
    out += "  " + ansi(color, "1", util::printable(commit));
    if (const auto subject = subject_of(r, commit); !subject.empty()) out += "  " + subject;
    if (const auto it = r.commit_info.find(commit); it != r.commit_info.end()) {
        out += fmt::format("  ({}, {})", util::printable(it->second.author),
                           short_time(it->second.date));
    }
    out += fmt::format("\n  previous: {}\n", short_commit(r.last_unmoved));
    if (!r.change) return out;
    TextTable t({{"benchmark", Align::Left},
                 {"before", Align::Right},
                 {"after", Align::Right},
                 {"change", Align::Right},
                 {"verdict", Align::Left}});
    std::string functions;
    for (const auto& b : r.change->benchmarks) {
        const auto* cost = b.change(metrics::Metric::cost());
        if (cost == nullptr || cost->base == cost->head) continue;
        t.add_row({util::printable(b.name), util::with_commas(cost->base),
                   util::with_commas(cost->head), util::precise_percent(cost->relative()),
                   std::string(compare::to_string(b.verdict))});
        if (!b.moved.empty()) {
            functions += "\n" + console_function_changes(b.name, b.moved);
        }
    }
    return out + "\n" + t.render(2, color) + functions;
}

class ConsoleBisectReporter final : public BisectReporter {
  public:
    std::string render(const BisectReport& r, const RenderOptions& o) const override {
        std::string out = fmt::format(
            "bisect: {} commits from {} (good) to {} (bad) on the first-parent line; gate {}\n",
            r.commits, short_commit(r.good), short_commit(r.bad), util::printable(r.gate));
        out += probes(r, o.color) + "\n" + answer(r, o.color);
        out += fmt::format("\n{} commit{} looked at: {} from the history, {} built and measured\n",
                           r.probes.size(), r.probes.size() == 1 ? "" : "s", r.from_history,
                           r.measured);
        return out;
    }
};

}  // namespace

std::unique_ptr<BisectReporter> make_console_bisect_reporter() {
    return std::make_unique<ConsoleBisectReporter>();
}

std::string_view to_string(history::Verdict v) {
    switch (v) {
        case history::Verdict::Unmoved:
            return "unmoved";
        case history::Verdict::Moved:
            return "moved";
        case history::Verdict::Skip:
            return "skipped";
    }
    return "skipped";
}

}  // namespace cgbench::report
