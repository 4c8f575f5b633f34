#pragma once
// Formatting helpers shared by the run reporters: the same cells in every format.

#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::report {

// Column titles of the summary table: benchmark, status, Ir, L1 hits, LL hits, RAM hits, with
// branch simulation Bcm (the mispredictions the cost weighs), cost.
std::vector<std::string> summary_titles(bool branch_sim);

// The summary cells of one benchmark (numbers with thousands separators, "-" when absent or
// failed), in the columns of summary_titles(branch_sim).
std::vector<std::string> summary_cells(const BenchmarkResult& b, bool branch_sim);

// One line naming how the numbers were produced: tool, Valgrind, geometry, CPU, weights.
std::string provenance(const Fingerprint& f);

// "1·L1 + 5·LL + 35·RAM", "1·L1 + 5·LL + 35·RAM + 20·Bcm" or "Ir".
std::string cost_formula(const metrics::Weights& w);

// "ok", "FAILED", "TIMEOUT".
std::string status_label(const BenchmarkResult& b);

}  // namespace cgbench::report
