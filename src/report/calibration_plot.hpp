#pragma once
// The charts of the calibration page, as inline SVG: measured and predicted time over the
// working sets of one memory walk (seed 002's chart, with every weight set), and predicted
// against measured for every kernel on log-log axes.

#include <string>
#include <string_view>

#include "calibrate/calibration.hpp"

namespace cgbench::report {

// Times relative to the slowest measured kernel of the sweep (the seed's normalisation), over
// the working sets of the kernels of `family` ("walk/linear", "walk/random"); "" when the
// sweep has fewer than two of them. Series classes: "m" measured, "w0", "w1", ... the weight
// sets in the order of `c.sets`.
std::string walk_chart(const calibrate::Calibration& c, std::string_view family);

// Predicted (y) against measured (x) time of every kernel, relative to the slowest measured,
// log-log, with the diagonal where prediction equals measurement.
std::string scatter_chart(const calibrate::Calibration& c);

// The same for the held-out programs (--programs), each set scaled as on the sweep, relative
// to the slowest program; "" without programs.
std::string programs_chart(const calibrate::Calibration& c);

}  // namespace cgbench::report
