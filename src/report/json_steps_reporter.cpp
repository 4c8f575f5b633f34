// JSON rendering of `cgbench steps`, schema "cgbench-steps/1": per branch its epochs, events
// (each with its steps: label, before, after, change, what moved, functions) and blips.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "history/environment.hpp"
#include "report/function_report.hpp"
#include "report/history_text.hpp"
#include "report/steps_reporter.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;
using history::BranchSteps;

class Writer {
  public:
    explicit Writer(const StepsReport& r) : r_(r), h_(*r.history) {}

    ojson document() const {
        ojson branches = ojson::array();
        for (const auto& b : r_.branches)
            branches.push_back(branch(b));
        return ojson{{"schema", "cgbench-steps/1"},
                     {"database", r_.database},
                     {"benchmark", json_or_null(r_.benchmark)},
                     {"branches", std::move(branches)},
                     {"ordering", ordering_json(h_.ordering)}};
    }

  private:
    ojson run(std::size_t index) const {
        const auto& run = h_.runs[index];
        ojson j{{"run", run.id},
                {"started", run.started},
                {"commit", json_or_null(run.git.commit)},
                {"commit_time", json_or_null(run.git.commit_time)}};
        if (run.git.commit) {
            if (const auto it = r_.commits.find(*run.git.commit); it != r_.commits.end()) {
                j["subject"] = it->second.subject;
            }
        }
        return j;
    }

    ojson point(const history::Result& r) const {
        ojson j = run(r.run);
        j["cost"] = json_or_null(r.cost);
        j["Ir"] = json_or_null(r.ir);
        return j;
    }

    ojson epochs(const BranchSteps& b) const {
        ojson out = ojson::array();
        for (std::size_t i = 0; i < b.epochs.size(); ++i) {
            const auto& e = b.epochs[i];
            const auto& fp = h_.fingerprints[e.fingerprint];
            ojson j{{"epoch", i + 1},
                    {"fingerprint", h_.keys[e.fingerprint]},
                    {"from", run(b.runs[e.first])},
                    {"to", run(b.runs[e.last])},
                    {"runs", e.last - e.first + 1},
                    {"measured_with", history::describe(fp)}};
            if (i > 0) {
                const auto& prev = h_.runs[b.runs[b.epochs[i - 1].last]];
                j["changes"] = history::environment_changes(h_.fingerprints[prev.fingerprint], fp);
            }
            out.push_back(std::move(j));
        }
        return out;
    }

    ojson step(const history::BenchmarkStep& s) const {
        ojson j{{"benchmark", s.benchmark},         {"label", std::string(to_string(s.step.label))},
                {"pending", s.step.pending},        {"change", s.step.change},
                {"before", point(s.before)},        {"after", point(s.after)},
                {"wobble_bound", s.wobble.bound},   {"wobble_samples", s.wobble.samples},
                {"environment", s.step.environment}};
        if (s.explanation) {
            ojson moved = ojson::array();
            for (const auto& m : s.explanation->moved) {
                moved.push_back({{"metric", std::string(m.metric.name())},
                                 {"before", m.before},
                                 {"after", m.after}});
            }
            j["instructions_moved"] = s.explanation->instructions;
            j["moved"] = std::move(moved);
            j["functions"] = function_changes_json(s.explanation->functions);
        }
        return j;
    }

    // Every benchmark's wobble bound on the branch, and whether its moves are mostly wobble.
    static ojson wobble(const BranchSteps& b) {
        ojson out = ojson::array();
        for (const auto& w : b.wobble) {
            out.push_back({{"benchmark", w.benchmark},
                           {"wobble_bound", w.wobble.bound},
                           {"wobble_samples", w.wobble.samples},
                           {"moves", w.moves},
                           {"noise_moves", w.noise},
                           {"repeatable", w.repeatable()}});
        }
        return out;
    }

    ojson branch(const BranchSteps& b) const {
        ojson events = ojson::array();
        for (const auto& e : b.events) {
            ojson steps = ojson::array();
            for (const auto& s : e.steps)
                steps.push_back(step(s));
            ojson j = run(e.run);
            j["steps"] = std::move(steps);
            events.push_back(std::move(j));
        }
        ojson blips = ojson::array();
        if (r_.verbose) {
            for (const auto& bl : b.blips) {
                blips.push_back({{"benchmark", bl.benchmark},
                                 {"before", point(bl.before)},
                                 {"at", point(bl.at)},
                                 {"change", bl.blip.change},
                                 {"environment_changed", bl.blip.environment}});
            }
        }
        return ojson{{"branch", b.branch},
                     {"default", b.is_default},
                     {"commits", b.commits},
                     {"runs", b.runs.size()},
                     {"benchmarks", b.benchmarks},
                     {"epochs", epochs(b)},
                     {"events", std::move(events)},
                     {"wobble_steps", b.wobble_steps},
                     {"wobble_moves", b.wobble_moves},
                     {"wobble", wobble(b)},
                     {"blip_count", b.blip_count},
                     {"listed", r_.verbose},  // wobble steps and blips are listed only with -v
                     {"blips", std::move(blips)}};
    }

    const StepsReport& r_;
    const history::History& h_;
};

class JsonStepsReporter final : public StepsReporter {
  public:
    std::string render(const StepsReport& r, const RenderOptions&) const override {
        return dump_json(Writer(r).document()) + "\n";
    }
};

}  // namespace

std::unique_ptr<StepsReporter> make_json_steps_reporter() {
    return std::make_unique<JsonStepsReporter>();
}

}  // namespace cgbench::report
