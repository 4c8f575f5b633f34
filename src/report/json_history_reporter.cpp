// JSON rendering of `cgbench history`: an array, in commit order for a series, newest first
// for runs. Keys: run, started, commit, branch, dirty, commit_time, author_time, subject,
// recorded_by, then the numbers; a series' results also carry their fingerprint key and
// epoch (1-based), its change null at an epoch's start.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/history_reporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson run_fields(const std::string& id, const std::string& started, const GitInfo& git,
                 const std::string& recorded_by) {
    return ojson{{"run", id},
                 {"started", started},
                 {"commit", json_or_null(git.commit)},
                 {"branch", json_or_null(git.branch)},
                 {"dirty", json_or_null(git.dirty)},
                 {"commit_time", json_or_null(git.commit_time)},
                 {"author_time", json_or_null(git.author_time)},
                 {"subject", json_or_null(git.subject)},
                 {"recorded_by", recorded_by.empty() ? ojson() : ojson(recorded_by)}};
}

std::string dump(const ojson& j) {
    return dump_json(j) + "\n";
}

class JsonHistoryReporter final : public HistoryReporter {
  public:
    std::string series(const SeriesView& v, const RenderOptions&) const override {
        ojson out = ojson::array();
        std::size_t epoch = 0;
        for (std::size_t i = 0; i < v.points.size(); ++i) {
            while (epoch + 1 < v.epochs.size() && v.epochs[epoch + 1].first <= i)
                ++epoch;
            const auto& p = v.points[i];
            const auto& run = v.history->run_of(p);
            ojson j = run_fields(run.id, run.started, run.git, run.recorded_by);
            j["status"] = std::string(to_string(p.status));
            j["cost"] = json_or_null(p.cost);
            j["Ir"] = json_or_null(p.ir);
            j["change"] = json_or_null(v.changes[i]);
            j["fingerprint"] = v.history->key_of(p.run);
            j["epoch"] = epoch + 1;
            out.push_back(std::move(j));
        }
        return dump(out);
    }

    std::string runs(const std::vector<history::RunRow>& rows,
                     const RenderOptions&) const override {
        ojson out = ojson::array();
        for (const auto& r : rows) {
            ojson j = run_fields(r.id, r.started, r.git, r.recorded_by);
            j["benchmarks"] = r.benchmarks;
            j["failed"] = r.failed;
            j["fingerprint"] = r.fingerprint_key;
            out.push_back(std::move(j));
        }
        return dump(out);
    }
};

}  // namespace

std::unique_ptr<HistoryReporter> make_json_history_reporter() {
    return std::make_unique<JsonHistoryReporter>();
}

}  // namespace cgbench::report
