// JSON rendering of `cgbench backfill`, schema "cgbench-backfill/1": the range, branch and
// fingerprint, each commit with its outcome, and the totals.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/backfill_reporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson optional_text(const std::string& v) {
    return v.empty() ? ojson() : ojson(v);
}

class JsonBackfillReporter final : public BackfillReporter {
  public:
    std::string render(const BackfillReport& r, const RenderOptions&) const override {
        ojson commits = ojson::array();
        for (const auto& c : r.commits) {
            commits.push_back({{"commit", c.commit},
                               {"subject", c.subject},
                               {"commit_time", optional_text(c.committed)},
                               {"outcome", std::string(to_string(c.outcome))},
                               {"recorded", recorded(c.outcome)},
                               {"run", optional_text(c.run)},
                               {"detail", optional_text(c.detail)},
                               {"seconds", c.seconds}});
        }
        ojson totals = ojson::object();
        for (const auto o :
             {BackfillOutcome::Measured, BackfillOutcome::BenchmarkFailed, BackfillOutcome::Stored,
              BackfillOutcome::BuildFailed, BackfillOutcome::CannotMeasure}) {
            totals[std::string(to_string(o))] = count(r, o);
        }
        const ojson doc{{"schema", "cgbench-backfill/1"},
                        {"range", r.range},
                        {"branch", r.branch},
                        {"database", r.database},
                        {"fingerprint", r.fingerprint},
                        {"in_range", r.in_range},
                        {"shallow", r.shallow},
                        {"interrupted", r.interrupted},
                        {"seconds", r.seconds},
                        {"totals", std::move(totals)},
                        {"commits", std::move(commits)}};
        return dump_json(doc) + "\n";
    }
};

}  // namespace

std::unique_ptr<BackfillReporter> make_json_backfill_reporter() {
    return std::make_unique<JsonBackfillReporter>();
}

}  // namespace cgbench::report
