#include "metrics/score.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::metrics {

namespace {

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b) {
    std::uint64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) {
        throw UsageError("event counts overflow 64 bits when added",
                         "the profile is corrupt or not from Cachegrind");
    }
    return out;
}

std::uint64_t checked_sub(std::uint64_t a, std::uint64_t b, std::string_view what) {
    if (b > a) {
        throw UsageError(fmt::format("inconsistent counts: {} would be negative", what),
                         "the profile is corrupt or not from Cachegrind");
    }
    return a - b;
}

std::uint64_t checked_mul_add(std::uint64_t acc, std::uint64_t w, std::uint64_t x) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(w, x, &product)) {
        throw UsageError("cost overflows 64 bits", "use smaller weights");
    }
    return checked_add(acc, product);
}

// The default weights' cost of a misprediction, in L1 hits: measured with `cgbench calibrate
// --branch-sim` (docs/design/calibration.md).
constexpr std::uint64_t kPythonspeedMispredict = 20;

const WeightPreset* find_preset(std::string_view name) {
    for (const auto& p : weight_presets()) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

}  // namespace

std::string Weights::describe() const {
    if (instructions_only) return "Ir only";
    if (mispredict == 0) return fmt::format("{}/{}/{}", l1, ll, ram);
    return fmt::format("{}/{}/{}, mispredict {}", l1, ll, ram, mispredict);
}

const std::vector<WeightPreset>& weight_presets() {
    static const std::vector<WeightPreset> presets = {
        {"pythonspeed", "L1 + 5*LL + 35*RAM (default; also iai-callgrind's estimated cycles)",
         Weights{"pythonspeed", 1, 5, 35, false}, kPythonspeedMispredict},
        // KCachegrind's cycle estimate weighs a misprediction by 10 (its Bm is Bcm + Bim).
        {"kcachegrind", "L1 + 10*LL + 100*RAM (KCachegrind's cycle estimate)",
         Weights{"kcachegrind", 1, 10, 100, false}, 10},
        {"ir", "instructions only; runs without cache simulation (about 3x faster)",
         Weights{"ir", 1, 0, 0, true}, 0},
    };
    return presets;
}

Weights parse_weights(std::string_view text) {
    if (const auto* p = find_preset(text)) return p->weights;
    const auto fields = util::split(text, ',');
    const auto bad = [&] {
        return UsageError(
            fmt::format("invalid weights '{}'", util::printable(text)),
            "use pythonspeed, kcachegrind, ir, or three non-negative integers L1,LL,RAM "
            "such as 1,6,80 (a fourth weighs mispredicted conditional branches, with "
            "--branch-sim)");
    };
    if (fields.size() != 3 && fields.size() != 4) throw bad();
    Weights w{"custom", 0, 0, 0, false};
    std::uint64_t* slots[] = {&w.l1, &w.ll, &w.ram, &w.mispredict};
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto v = util::parse_u64(util::trim(fields[i]));
        if (!v) throw bad();
        *slots[i] = *v;
    }
    if (w.l1 == 0 && w.ll == 0 && w.ram == 0) throw bad();
    if (std::max({w.l1, w.ll, w.ram, w.mispredict}) > kMaxWeight) {
        // Found before measuring, not as an overflowing cost after it.
        throw UsageError(fmt::format("invalid weights '{}': a weight above {} could make the "
                                     "cost overflow 64 bits",
                                     util::printable(text), util::with_commas(kMaxWeight)),
                         "use weights up to 1,000,000 (their ratios are what matters)");
    }
    return w;
}

Weights with_branch_sim(Weights w, bool branch_sim) {
    const auto* preset = find_preset(w.name);
    if (branch_sim) {
        if (preset != nullptr) w.mispredict = preset->mispredict;
        return w;
    }
    if (w.mispredict > 0) {
        throw UsageError(fmt::format("the weights '{}' ({}) weigh mispredicted branches, but "
                                     "branch simulation is off",
                                     util::printable(w.name), w.describe()),
                         "add --branch-sim (or branch_sim = true in the suite's [defaults]), "
                         "or use weights without a misprediction weight");
    }
    return w;
}

std::optional<std::uint64_t> mispredicts(const EventCounts& c) {
    if (!c.has(Event::Bcm)) return std::nullopt;
    return c.get(Event::Bcm);
}

std::optional<Derived> derive(const EventCounts& c) {
    if (!c.has_cache_events()) return std::nullopt;
    using E = Event;
    const std::uint64_t ram =
        checked_add(checked_add(c.get(E::ILmr), c.get(E::DLmr)), c.get(E::DLmw));
    const std::uint64_t l1_misses =
        checked_add(checked_add(c.get(E::I1mr), c.get(E::D1mr)), c.get(E::D1mw));
    const std::uint64_t refs = checked_add(checked_add(c.get(E::Ir), c.get(E::Dr)), c.get(E::Dw));
    Derived d;
    d.ram_hits = ram;
    d.ll_hits = checked_sub(l1_misses, ram, "LL hits (L1 misses - LL misses)");
    d.l1_hits = checked_sub(refs, l1_misses, "L1 hits (references - L1 misses)");
    return d;
}

std::uint64_t cost(const EventCounts& counts, const Weights& w) {
    if (w.instructions_only) {
        if (!counts.has(Event::Ir)) throw UsageError("the profile has no Ir event");
        return counts.get(Event::Ir);
    }
    const auto d = derive(counts);
    if (!d) {
        throw UsageError("the profile lacks cache-simulation events needed for the cost",
                         "measure with cache simulation on, or use --weights ir");
    }
    std::uint64_t total = 0;
    total = checked_mul_add(total, w.l1, d->l1_hits);
    total = checked_mul_add(total, w.ll, d->ll_hits);
    total = checked_mul_add(total, w.ram, d->ram_hits);
    if (w.mispredict == 0) return total;
    const auto m = mispredicts(counts);
    if (!m) {
        throw UsageError(
            "the profile lacks the branch-simulation events the misprediction "
            "weight needs",
            "measure with --branch-sim, or use weights without a misprediction "
            "weight");
    }
    return checked_mul_add(total, w.mispredict, *m);
}

}  // namespace cgbench::metrics
