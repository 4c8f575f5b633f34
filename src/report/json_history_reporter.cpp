// JSON rendering of `cgbench history`: an array, oldest first for a series, newest first
// for runs. Keys: run, started, commit, branch, dirty, then the numbers.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/history_reporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson opt(const std::optional<std::string>& v) {
    return v ? ojson(*v) : ojson();
}
ojson opt(const std::optional<std::uint64_t>& v) {
    return v ? ojson(*v) : ojson();
}

ojson run_fields(const std::string& id, const std::string& started, const GitInfo& git) {
    return ojson{{"run", id},
                 {"started", started},
                 {"commit", opt(git.commit)},
                 {"branch", opt(git.branch)},
                 {"dirty", git.dirty ? ojson(*git.dirty) : ojson()}};
}

std::string dump(const ojson& j) {
    return dump_json(j) + "\n";
}

class JsonHistoryReporter final : public HistoryReporter {
  public:
    std::string series(std::string_view, const std::vector<store::SeriesPoint>& points,
                       const RenderOptions&) const override {
        ojson out = ojson::array();
        for (const auto& p : points) {
            ojson j = run_fields(p.run_id, p.started, p.git);
            j["status"] = std::string(to_string(p.status));
            j["cost"] = opt(p.cost);
            j["Ir"] = opt(p.ir);
            j["change"] = p.change ? ojson(*p.change) : ojson();
            out.push_back(std::move(j));
        }
        return dump(out);
    }

    std::string runs(const std::vector<store::RunRow>& rows, const RenderOptions&) const override {
        ojson out = ojson::array();
        for (const auto& r : rows) {
            ojson j = run_fields(r.id, r.started, r.git);
            j["benchmarks"] = r.benchmarks;
            j["failed"] = r.failed;
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
