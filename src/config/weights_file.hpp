#pragma once
// Weights from a file: what `cgbench calibrate --out FILE` writes and `--weights FILE` (or a
// suite's `weights = "FILE"`) reads. A small TOML document:
//
//   schema = "cgbench-weights/1"
//   name = "calibrated"          # optional; shown in reports (default: the file's stem)
//   l1 = 1
//   ll = 3
//   ram = 42
//   mispredict = 20              # optional: per mispredicted conditional branch (Bcm), for
//                                #   runs with --branch-sim
//   [calibration]                # optional, informational: how the weights were fitted
//
// The weights are integers, as for `--weights L1,LL,RAM`; results record them like any
// custom weights (the name is a label, the values decide the fingerprint).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "metrics/score.hpp"

namespace cgbench::config {

// A --weights value, CGBENCH_WEIGHTS or a suite's `weights`: a preset, "L1,LL,RAM", or the
// path of a weights file, relative to `base` (a suite's directory; empty: the current
// directory). Throws UsageError naming what is wrong and the accepted forms.
metrics::Weights resolve_weights(std::string_view text, const std::filesystem::path& base = {});

// `text` with a weights file's path made absolute against `base` (so the value means the same
// file wherever cgbench runs); presets and L1,LL,RAM come back unchanged.
std::string anchor_weights(std::string_view text, const std::filesystem::path& base);

// Reads a weights file. Throws UsageError naming the file, and the line and key when the
// content is wrong (unknown keys are errors).
metrics::Weights load_weights_file(const std::filesystem::path& path);

using CalibrationValue = std::variant<std::string, double, std::int64_t, std::vector<double>>;

struct WeightsFile {
    metrics::Weights weights;
    std::vector<std::string> comments;  // lines written as "# ..." at the top
    // The informational [calibration] table, in this order.
    std::vector<std::pair<std::string, CalibrationValue>> calibration;
};

// The text of a weights file that load_weights_file reads back as `file.weights`.
std::string format_weights_file(const WeightsFile& file);

}  // namespace cgbench::config
