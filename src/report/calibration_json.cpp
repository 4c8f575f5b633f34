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
    n["pinned_cpu"] = x.pinned_cpu ? ojson(*x.pinned_cpu) : ojson();
    n["pin_failure"] = x.pin_failure.empty() ? ojson() : ojson(x.pin_failure);
    n["rounds"] = x.native.rounds;
    n["repeat"] = x.native.repeat;
    n["warmups"] = x.native.warmups;
    n["steps"] = x.steps;
    n["cpus"] = x.cpus;
    n["load_before"] = x.load_before ? ojson(*x.load_before) : ojson();
    n["load_after"] = x.load_after ? ojson(*x.load_after) : ojson();
    n["cpu_model"] = x.cpu_model;
    n["seconds"] = x.native_seconds;
    return n;
}

ojson kernel_json(const calibrate::Calibration& c, std::size_t i) {
    const auto& k = c.kernels[i];
    ojson j;
    j["name"] = k.kernel.name;
    j["family"] = k.kernel.family;
    j["working_set"] = k.kernel.working_set ? ojson(*k.kernel.working_set) : ojson();
    j["time"] = {{"median", k.timing.median},
                 {"spread", k.timing.spread},
                 {"uncertainty", k.timing.uncertainty},
                 {"runs", k.timing.values}};
    j["hits"] = {{"l1", k.hits.l1_hits}, {"ll", k.hits.ll_hits}, {"ram", k.hits.ram_hits}};
    j["Ir"] = k.ir;
    ojson predicted = ojson::object();
    for (const auto& s : c.sets)
        predicted[s.name] = s.agreement.predicted[i];
    j["predicted"] = std::move(predicted);
    return j;
}

ojson set_json(const calibrate::WeightSet& s) {
    ojson j;
    j["name"] = s.name;
    const char* keys[] = {"l1", "ll", "ram", "ir"};
    for (std::size_t i = 0; i < s.weights.size() && i < 4; ++i)
        j[keys[i]] = s.weights[i];
    j["usable"] = s.usable;
    j["scale"] = s.agreement.scale;
    j["r"] = s.agreement.pearson_r;
    j["r_squared"] = s.agreement.r_squared;
    j["median_abs_error"] = s.agreement.median_abs_error;
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
    doc["objective"] = calibrate::to_string(c.objective);
    doc["fitted"] = {{"name", c.fitted.name},
                     {"l1", c.fitted.l1},
                     {"ll", c.fitted.ll},
                     {"ram", c.fitted.ram},
                     {"exact", c.fitted_exact}};
    if (!c.fitted_exact_ir.empty()) doc["fitted"]["exact_with_ir"] = c.fitted_exact_ir;
    ojson sets = ojson::array();
    for (const auto& s : c.sets)
        sets.push_back(set_json(s));
    doc["weight_sets"] = std::move(sets);
    ojson kernels = ojson::array();
    for (std::size_t i = 0; i < c.kernels.size(); ++i)
        kernels.push_back(kernel_json(c, i));
    doc["kernels"] = std::move(kernels);
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
