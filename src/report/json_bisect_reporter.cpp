// JSON rendering of `cgbench bisect`, schema "cgbench-bisect/1".

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/bisect_reporter.hpp"
#include "report/function_report.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson commit_json(const BisectReport& r, const std::optional<std::string>& commit) {
    if (!commit) return ojson();
    ojson j{{"commit", *commit}};
    if (const auto it = r.commit_info.find(*commit); it != r.commit_info.end()) {
        j["subject"] = it->second.subject;
        j["author"] = it->second.author;
        j["date"] = it->second.date;
    }
    return j;
}

ojson change_json(const BisectReport& r) {
    ojson out = ojson::array();
    if (!r.change) return out;
    for (const auto& b : r.change->benchmarks) {
        const auto* cost = b.change(metrics::Metric::cost());
        if (cost == nullptr) continue;
        ojson j{{"benchmark", b.name},
                {"before", cost->base},
                {"after", cost->head},
                {"change", cost->relative()},
                {"verdict", std::string(compare::to_string(b.verdict))}};
        if (const auto* ir = b.change(metrics::Metric::event(metrics::Event::Ir))) {
            j["Ir_before"] = ir->base;
            j["Ir_after"] = ir->head;
        }
        j["functions"] = function_changes_json(b.moved);
        out.push_back(std::move(j));
    }
    return out;
}

// BAD's largest move when it did not move beyond the threshold; null otherwise.
ojson largest_json(const BisectReport& r) {
    if (!r.largest) return nullptr;
    const auto& l = *r.largest;
    return ojson{{"benchmark", l.benchmark},
                 {"change", l.change},
                 {"delta", l.delta},
                 {"threshold", l.threshold.empty() ? ojson() : ojson(l.threshold)}};
}

class JsonBisectReporter final : public BisectReporter {
  public:
    std::string render(const BisectReport& r, const RenderOptions&) const override {
        ojson probes = ojson::array();
        for (const auto& p : r.probes) {
            probes.push_back({{"commit", p.commit},
                              {"source", p.source},
                              {"verdict", p.verdict ? ojson(std::string(to_string(*p.verdict)))
                                                    : ojson()},
                              {"detail", p.detail},
                              {"seconds", p.seconds}});
        }
        const ojson doc{{"schema", "cgbench-bisect/1"},
                        {"good", commit_json(r, r.good)},
                        {"bad", commit_json(r, r.bad)},
                        {"commits", r.commits},
                        {"gate", r.gate},
                        {"probes", std::move(probes)},
                        {"from_history", r.from_history},
                        {"measured", r.measured},
                        {"found", r.moved && r.first_moved.has_value()},
                        {"first_moved", commit_json(r, r.first_moved)},
                        {"previous", commit_json(r, r.last_unmoved)},
                        {"skipped", r.skipped},
                        {"benchmarks", change_json(r)},
                        {"largest_move", largest_json(r)}};
        return dump_json(doc) + "\n";
    }
};

}  // namespace

std::unique_ptr<BisectReporter> make_json_bisect_reporter() {
    return std::make_unique<JsonBisectReporter>();
}

}  // namespace cgbench::report
