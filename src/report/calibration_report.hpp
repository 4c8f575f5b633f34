#pragma once
// Reports of `cgbench calibrate`, one per format, pure serializers of a Calibration: the
// console tables, the JSON document ("cgbench-calibration/1") and the self-contained HTML
// page with the predicted-vs-measured charts (inline SVG and CSS, no script).

#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

// Renders what `cgbench calibrate` prints on stdout (the console tables or the JSON document).
class CalibrationReporter {
  public:
    virtual ~CalibrationReporter() = default;
    virtual std::string render(const calibrate::Calibration& c,
                               const RenderOptions& options) const = 0;
};

inline constexpr std::string_view kCalibrationSchema = "cgbench-calibration/1";

// The header, a table of every kernel (time, spread, hits, each weight set's error) and the
// table of weight sets (r, R², median error).
std::string render_calibration_console(const calibrate::Calibration& c, bool color);

// The native timings alone, for a calibration refused as too noisy.
std::string render_timings_console(const std::vector<calibrate::Kernel>& kernels,
                                   const std::vector<calibrate::Timing>& timings,
                                   calibrate::Clock clock, double max_noise);

std::string render_calibration_json(const calibrate::Calibration& c);

std::string render_calibration_html(const calibrate::Calibration& c);

// How the kernels were simulated: provenance() without its weights (calibration compares
// weight sets; it has none of its own).
std::string simulated_with(const Fingerprint& f);

// The relative error of `predicted` against `measured`, signed: "+12.3%".
std::string relative_error(double predicted, double measured);

// "1 / 5 / 35", or with the Ir weight of a 4-term set "1 / 2.84 / 41.7 / Ir 0.3".
std::string describe_weights(const calibrate::WeightSet& set);

}  // namespace cgbench::report
