#pragma once
// Derived cache-level hits and the weighted cost (DESIGN §2):
//   ram_hits = ILmr + DLmr + DLmw
//   ll_hits  = (I1mr + D1mr + D1mw) - ram_hits
//   l1_hits  = (Ir + Dr + Dw) - ram_hits - ll_hits
//   cost     = w_l1*l1_hits + w_ll*ll_hits + w_ram*ram_hits
//            + w_mispredict*Bcm                    (with --branch-sim only)
// Only conditional mispredictions weigh: Cachegrind's indirect predictor remembers one target
// per branch, so an interpreter's dispatch reads as mispredicted where CPUs predict it
// (measured: docs/design/calibration.md).
// With the `ir` preset the cost is the instruction count and no cache simulation runs.
// All arithmetic is exact 64-bit; overflow and impossible counts raise UsageError instead of
// wrapping around.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/events.hpp"

namespace cgbench::metrics {

struct Weights {
    std::string name;  // "pythonspeed", "kcachegrind", "ir" or "custom"
    std::uint64_t l1 = 1;
    std::uint64_t ll = 5;
    std::uint64_t ram = 35;
    bool instructions_only = false;  // the `ir` preset: cost = Ir, cache simulation off
    // Per mispredicted conditional branch (Bcm). Only a run with branch simulation has one:
    // without it the weight is 0, so a result without one reads and keys as it always did.
    std::uint64_t mispredict = 0;

    // "1/5/35", "1/5/35, mispredict 20" or "Ir only": how the weights read in reports (and in
    // the fingerprint's key).
    std::string describe() const;
    friend bool operator==(const Weights&, const Weights&) = default;
};

struct WeightPreset {
    std::string_view name;
    std::string_view description;
    Weights weights;  // as without branch simulation (mispredict 0)
    // Its weight per misprediction, used when branch simulation is on (with_branch_sim).
    std::uint64_t mispredict = 0;
};

// The named presets, for parsing and help text.
const std::vector<WeightPreset>& weight_presets();

// The largest weight parse_weights accepts: with it, a cost overflows 64 bits only beyond
// 1.8e13 references (days of Valgrind time), so an overflow is refused before measuring.
inline constexpr std::uint64_t kMaxWeight = 1000000;

// Parses a preset name (as without branch simulation) or "L1,LL,RAM[,MISPREDICT]" integers from
// 0 to kMaxWeight (e.g. "1,6,80" or "1,6,80,20"). Throws UsageError naming the problem and the
// accepted forms.
Weights parse_weights(std::string_view text);

// `w` as a run with or without branch simulation applies it: with it, a preset takes its
// misprediction weight; without it, a misprediction weight of custom weights or a weights
// file is refused (UsageError: the cost could not include what is not simulated).
Weights with_branch_sim(Weights w, bool branch_sim);

// What the misprediction weight weighs, the mispredicted conditional branches (Bcm), or
// nullopt when the counts lack the branch-simulation events.
std::optional<std::uint64_t> mispredicts(const EventCounts& counts);

struct Derived {
    std::uint64_t l1_hits = 0;
    std::uint64_t ll_hits = 0;
    std::uint64_t ram_hits = 0;
    friend bool operator==(const Derived&, const Derived&) = default;
};

// The derived hits, or nullopt when the counts lack the cache-simulation events. Throws
// UsageError when the counts are inconsistent (more LL misses than L1 misses, overflow).
std::optional<Derived> derive(const EventCounts& counts);

// The weighted cost. Throws UsageError when a needed event is missing (the branch events for a
// misprediction weight) or the sum overflows.
std::uint64_t cost(const EventCounts& counts, const Weights& weights);

}  // namespace cgbench::metrics
