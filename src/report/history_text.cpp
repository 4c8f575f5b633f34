#include "report/history_text.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::report {

std::string short_time(std::string_view iso) {
    if (iso.size() < 16 || iso[10] != 'T') return util::printable(iso);
    return util::printable(fmt::format("{} {}", iso.substr(0, 10), iso.substr(11, 5)));
}

std::string short_commit(const std::optional<std::string>& commit) {
    if (!commit) return "-";
    return util::printable(commit->substr(0, 7));
}

std::string commit_date(const history::Run& run) {
    if (!run.git.commit_time) return "";
    const auto t = util::parse_iso8601(*run.git.commit_time);
    return t ? short_time(util::iso8601_at(static_cast<std::time_t>(*t)))
             : util::printable(*run.git.commit_time);
}

std::string run_date(const history::Run& run) {
    auto date = commit_date(run);
    return date.empty() ? short_time(run.started) : date;
}

namespace {

std::string runs_text(std::size_t n) {
    return fmt::format("{} run{}", util::with_commas(n), n == 1 ? "" : "s");
}

std::string conflict_text(const history::LineConflict& c) {
    const auto before = short_commit(c.before);
    const auto after = short_commit(c.after);
    const auto what =
        c.same_place
            ? fmt::format("{} and {} are both commit {} of it", before, after, c.depth)
            : fmt::format("{} (commit {} of it) does not follow {}", after, c.depth, before);
    return fmt::format(
        "{} is not one first-parent line: {} (rewritten, e.g. force-pushed, or the "
        "name reused): a change between them may be the rewrite, not the code",
        util::printable(c.branch), what);
}

}  // namespace

std::vector<std::string> ordering_notes(const history::Ordering& o) {
    std::vector<std::string> out;
    if (o.measured > 0) {
        out.push_back(
            fmt::format("{} recorded without git's facts about the commit (by an older cgbench, or "
                        "imported) placed by when measured",
                        runs_text(o.measured)));
    }
    if (o.commit_time > 0) {
        out.push_back(fmt::format(
            "{} recorded in a shallow clone placed by commit time: their ancestry is unknown "
            "(measure in a full clone, e.g. actions/checkout with fetch-depth: 0)",
            runs_text(o.commit_time)));
    }
    for (const auto& c : o.conflicts)
        out.push_back(conflict_text(c));
    if (o.conflict_count > o.conflicts.size()) {
        out.push_back(fmt::format("{} more such commits", o.conflict_count - o.conflicts.size()));
    }
    return out;
}

nlohmann::ordered_json ordering_json(const history::Ordering& o) {
    nlohmann::ordered_json conflicts = nlohmann::ordered_json::array();
    for (const auto& c : o.conflicts) {
        conflicts.push_back({{"branch", c.branch},
                             {"before", c.before},
                             {"after", c.after},
                             {"depth", c.depth},
                             {"same_place", c.same_place}});
    }
    return nlohmann::ordered_json{
        {"by_ancestry", o.ancestry},          {"by_commit_time", o.commit_time},
        {"by_measurement_time", o.measured},  {"conflicts", std::move(conflicts)},
        {"conflict_count", o.conflict_count}, {"notes", ordering_notes(o)}};
}

std::string noise_note(const history::BenchmarkWobble& w) {
    if (w.repeatable()) return "";
    return fmt::format("not repeatable (wobble ±{})",
                       util::precise_percent(w.wobble.bound).substr(1));
}

}  // namespace cgbench::report
