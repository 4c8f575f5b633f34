// `cgbench calibrate --format json`: schema "cgbench-calibration/1", everything the console
// shows and the raw timings, for plotting elsewhere.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/calibration_report.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

ojson native_json(const calibrate::CalibrationContext& x) {
    ojson n;
    n["clock"] = calibrate::to_string(x.native.clock);
    n["cycles_unavailable"] = x.cycles_unavailable.empty() ? ojson() : ojson(x.cycles_unavailable);
    n["pinned_cpu"] = json_or_null(x.pinned_cpu);
    n["pin_failure"] = x.pin_failure.empty() ? ojson() : ojson(x.pin_failure);
    n["rounds"] = x.native.rounds;
    n["repeat"] = x.native.repeat;
    n["warmups"] = x.native.warmups;
    n["steps"] = x.steps;
    n["cpus"] = x.cpus;
    n["load_before"] = json_or_null(x.load_before);
    n["load_after"] = json_or_null(x.load_after);
    n["cpu_model"] = x.cpu_model;
    n["seconds"] = x.native_seconds;
    return n;
}

// A kernel or a program, with each weight set's prediction for it.
template <typename Predicted>
ojson kernel_json(const calibrate::Calibration& c, const calibrate::KernelResult& k,
                  Predicted predicted) {
    ojson j;
    j["name"] = k.kernel.name;
    j["family"] = k.kernel.family;
    j["working_set"] = json_or_null(k.kernel.working_set);
    j["time"] = {{"median", k.timing.median},
                 {"spread", k.timing.spread},
                 {"uncertainty", k.timing.uncertainty},
                 {"runs", k.timing.values}};
    j["hits"] = {{"l1", k.hits.l1_hits}, {"ll", k.hits.ll_hits}, {"ram", k.hits.ram_hits}};
    if (k.l2_hits) j["hits"]["l2"] = *k.l2_hits;
    j["Ir"] = k.ir;
    if (k.mispredicts) j["mispredicts"] = *k.mispredicts;
    if (k.indirect_mispredicts) j["indirect_mispredicts"] = *k.indirect_mispredicts;
    ojson p = ojson::object();
    for (const auto& s : c.sets)
        p[s.name] = predicted(s);
    j["predicted"] = std::move(p);
    return j;
}

// The JSON key of a term's weight: "l1", "ll", "ram" as before, "l2", "mispredict", "ir".
std::string_view weight_key(calibrate::Term t) {
    switch (t) {
        case calibrate::Term::L1:
            return "l1";
        case calibrate::Term::L2:
            return "l2";
        case calibrate::Term::LL:
            return "ll";
        case calibrate::Term::Ram:
            return "ram";
        case calibrate::Term::Mispredicts:
            return "mispredict";
        case calibrate::Term::Ir:
            return "ir";
    }
    return "?";
}

ojson agreement_json(const calibrate::Agreement& a) {
    return {
        {"r", a.pearson_r}, {"r_squared", a.r_squared}, {"median_abs_error", a.median_abs_error}};
}

ojson set_json(const calibrate::WeightSet& s) {
    ojson j;
    j["name"] = s.name;
    for (std::size_t i = 0; i < s.terms.size() && i < s.weights.size(); ++i)
        j[std::string(weight_key(s.terms[i]))] = s.weights[i];
    j["usable"] = s.usable;
    j["scale"] = s.agreement.scale;
    j.update(agreement_json(s.agreement));
    if (s.programs) j["programs"] = agreement_json(*s.programs);
    return j;
}

ojson fitted_json(const calibrate::Calibration& c) {
    ojson j = {
        {"name", c.fitted.name}, {"l1", c.fitted.l1}, {"ll", c.fitted.ll}, {"ram", c.fitted.ram}};
    if (c.fitted.mispredict > 0) j["mispredict"] = c.fitted.mispredict;
    j["exact"] = c.fitted_exact;
    return j;
}

}  // namespace

std::string render_calibration_json(const calibrate::Calibration& c) {
    ojson doc;
    doc["schema"] = kCalibrationSchema;
    doc["started"] = c.context.started;
    doc["fingerprint"] = to_json(c.context.fingerprint);
    doc["native"] = native_json(c.context);
    doc["simulated_seconds"] = c.context.simulated_seconds;
    doc["objective"] = calibrate::to_string(c.model.objective);
    if (!c.context.l2.empty()) doc["l2"] = c.context.l2;
    doc["fitted"] = fitted_json(c);
    ojson sets = ojson::array();
    for (const auto& s : c.sets)
        sets.push_back(set_json(s));
    doc["weight_sets"] = std::move(sets);
    ojson kernels = ojson::array();
    for (std::size_t i = 0; i < c.kernels.size(); ++i) {
        kernels.push_back(kernel_json(c, c.kernels[i], [i](const calibrate::WeightSet& s) {
            return s.agreement.predicted[i];
        }));
    }
    doc["kernels"] = std::move(kernels);
    if (!c.programs.empty()) {
        ojson programs = ojson::array();
        for (std::size_t i = 0; i < c.programs.size(); ++i) {
            programs.push_back(kernel_json(c, c.programs[i], [i](const calibrate::WeightSet& s) {
                return s.programs->predicted[i];
            }));
        }
        doc["programs"] = std::move(programs);
    }
    return dump_json(doc) + "\n";
}

namespace {

class JsonCalibrationReporter final : public CalibrationReporter {
  public:
    std::string render(const calibrate::Calibration& c, const RenderOptions&) const override {
        return render_calibration_json(c);
    }
};

}  // namespace

std::unique_ptr<CalibrationReporter> make_json_calibration_reporter() {
    return std::make_unique<JsonCalibrationReporter>();
}

}  // namespace cgbench::report
