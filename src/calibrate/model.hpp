#pragma once
// The cost models `cgbench calibrate` compares. A model weighs terms (counts Cachegrind gives
// per kernel: L1, LL and RAM hits, mispredicted branches, instructions, L2 hits from a second
// geometry); a weight set is a model with weights, a preset's or fitted on the sweep, and how
// well its cost, times one scale factor, predicts the measured times: on the sweep it was
// fitted on, and on held-out programs with the sweep's scale (never fitted on them).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/fit.hpp"
#include "calibrate/kernels.hpp"
#include "calibrate/timing.hpp"
#include "metrics/score.hpp"

namespace cgbench::calibrate {

// One count a model can weigh.
enum class Term {
    L1,           // references served by L1
    L2,           // L1 misses an L2 of --l2's geometry serves (a second Cachegrind run)
    LL,           // L1 misses LL serves; with L2 in the model, those L2 does not serve
    Ram,          // LL misses
    Mispredicts,  // mispredicted conditional branches, Bcm (--branch-sim)
    Ir,           // instructions executed
};

// "L1", "L2", "LL", "RAM", "mispredicts", "Ir".
std::string_view to_string(Term term);

// Whether cgbench's cost has the term (L1, LL, RAM, mispredicts): only weight sets made of
// such terms can be written to a weights file and used by `cgbench run`.
bool in_cost(Term term);

// One kernel (or program) measured: its native timing and what Cachegrind counted for its
// loop (a built-in kernel) or its whole run (a suite benchmark, a program).
struct KernelResult {
    Kernel kernel;
    Timing timing;
    metrics::Derived hits;  // under the calibration's geometry
    std::uint64_t ir = 0;
    std::optional<std::uint64_t> mispredicts;  // with branch simulation: Bcm
    // With branch simulation: Bim, the indirect ones, which no model weighs (Cachegrind's
    // indirect predictor is far behind a CPU's); kept for the record and the JSON.
    std::optional<std::uint64_t> indirect_mispredicts;
    std::optional<std::uint64_t> l2_hits;  // with --l2: LL hits under the L2 geometry
};

// The count of `term` in `k` for a model of `terms`: LL leaves out the L2 hits when the
// model has L2 (clamped at 0); a count `k` lacks is 0.
double term_value(const KernelResult& k, Term term, const std::vector<Term>& terms);

// One row per kernel, one column per term.
Matrix features(const std::vector<KernelResult>& kernels, const std::vector<Term>& terms);

// How well a weight set predicts a set of kernels' median times.
struct WeightSet {
    std::string name;  // "pythonspeed", "pythonspeed + mispredicts", "fitted", "fitted + L2", ...
    std::vector<Term> terms;
    std::vector<double> weights;  // one per term, as applied (integers for usable fits)
    std::vector<double> exact;    // a fit's weights before rounding, relative to the first
    bool fitted = false;          // fitted on the sweep (else a preset)
    bool usable = true;           // every term is in cgbench's cost
    Agreement agreement;          // on the sweep
    // On the held-out programs, with the scale fitted on the sweep; absent without programs.
    std::optional<Agreement> programs;
};

// What the models may use, as measured.
struct ModelOptions {
    Objective objective = Objective::Absolute;
    bool ir_term = false;      // also fit "fitted + Ir"
    bool mispredicts = false;  // every kernel has its mispredicts (branch simulation)
    bool l2 = false;           // every kernel has its L2 hits (--l2)
};

// Every weight set, evaluated on `sweep` and, when not empty, on `programs`: the presets
// without and (with mispredicts) with their misprediction weight, then the fits: "fitted"
// (L1, LL, RAM), "fitted + mispredicts", "fitted + Ir", "fitted + L2" and, with two or more
// of those terms, "fitted + all". Usable fits are rounded to the integers a weights file
// holds. Throws EnvironmentError when the sweep is too small or no weights fit.
std::vector<WeightSet> weight_sets(const std::vector<KernelResult>& sweep,
                                   const std::vector<KernelResult>& programs,
                                   const ModelOptions& options);

// How `set` does on `kernels`, with predictions scaled by `scale` (time units per cost unit).
Agreement evaluate(const WeightSet& set, const std::vector<KernelResult>& kernels, double scale);

// The weight set `cgbench run` should use from `sets`: "fitted + mispredicts" when there is
// one, else "fitted"; its weights as integers, named "calibrated".
metrics::Weights usable_fit(const std::vector<WeightSet>& sets, const WeightSet** chosen = nullptr);

}  // namespace cgbench::calibrate
