#include "calibrate/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"

namespace cgbench::calibrate {

namespace {

bool has_term(const std::vector<Term>& terms, Term t) {
    return std::find(terms.begin(), terms.end(), t) != terms.end();
}

double as_double(std::uint64_t v) {
    return static_cast<double>(v);
}

std::vector<double> medians(const std::vector<KernelResult>& kernels) {
    std::vector<double> out;
    out.reserve(kernels.size());
    for (const auto& k : kernels)
        out.push_back(k.timing.median);
    return out;
}

std::vector<double> relative_to_first(std::vector<double> w) {
    const auto first = std::find_if(w.begin(), w.end(), [](double v) { return v > 0; });
    if (first == w.end()) return w;
    const double unit = *first;
    for (auto& v : w)
        v /= unit;
    return w;
}

WeightSet preset_set(const metrics::WeightPreset& p, bool with_mispredicts) {
    WeightSet s;
    s.name = std::string(p.name) + (with_mispredicts ? " + mispredicts" : "");
    s.terms = {Term::L1, Term::LL, Term::Ram};
    s.weights = {as_double(p.weights.l1), as_double(p.weights.ll), as_double(p.weights.ram)};
    if (with_mispredicts) {
        s.terms.push_back(Term::Mispredicts);
        s.weights.push_back(as_double(p.mispredict));
    }
    return s;
}

// A model fitted on the sweep; weights rounded to integers when cgbench's cost can use them.
WeightSet fitted_set(std::string name, std::vector<Term> terms,
                     const std::vector<KernelResult>& sweep, Objective objective) {
    WeightSet s;
    s.name = std::move(name);
    s.terms = std::move(terms);
    s.fitted = true;
    s.usable = std::all_of(s.terms.begin(), s.terms.end(), in_cost);
    const auto f = features(sweep, s.terms);
    const auto fit = fit_weights(f, medians(sweep), objective);
    s.exact = relative_to_first(fit);
    if (s.usable) {
        for (const auto w : integer_weights(f, fit))
            s.weights.push_back(as_double(w));
    } else {
        s.weights = s.exact;
    }
    return s;
}

// The fitted models: L1, LL and RAM, each new term measured added alone, then all of them.
std::vector<std::pair<std::string, std::vector<Term>>> fitted_models(const ModelOptions& o) {
    const std::vector<Term> base = {Term::L1, Term::LL, Term::Ram};
    std::vector<std::pair<std::string, std::vector<Term>>> out = {{"fitted", base}};
    std::vector<Term> all = base;
    int extra = 0;
    const auto add = [&](bool measured, Term t, std::string_view label) {
        if (!measured) return;
        auto terms = base;
        terms.push_back(t);
        std::sort(terms.begin(), terms.end());
        out.emplace_back(fmt::format("fitted + {}", label), std::move(terms));
        all.push_back(t);
        ++extra;
    };
    add(o.mispredicts, Term::Mispredicts, "mispredicts");
    add(o.ir_term, Term::Ir, "Ir");
    add(o.l2, Term::L2, "L2");
    if (extra >= 2) {
        std::sort(all.begin(), all.end());
        out.emplace_back("fitted + all", std::move(all));
    }
    return out;
}

}  // namespace

std::string_view to_string(Term term) {
    switch (term) {
        case Term::L1:
            return "L1";
        case Term::L2:
            return "L2";
        case Term::LL:
            return "LL";
        case Term::Ram:
            return "RAM";
        case Term::Mispredicts:
            return "mispredicts";
        case Term::Ir:
            return "Ir";
    }
    return "?";
}

bool in_cost(Term term) {
    return term != Term::L2 && term != Term::Ir;
}

double term_value(const KernelResult& k, Term term, const std::vector<Term>& terms) {
    switch (term) {
        case Term::L1:
            return as_double(k.hits.l1_hits);
        case Term::L2:
            return as_double(k.l2_hits.value_or(0));
        case Term::LL: {
            const std::uint64_t l2 = has_term(terms, Term::L2) ? k.l2_hits.value_or(0) : 0;
            return k.hits.ll_hits > l2 ? as_double(k.hits.ll_hits - l2) : 0;
        }
        case Term::Ram:
            return as_double(k.hits.ram_hits);
        case Term::Mispredicts:
            return as_double(k.mispredicts.value_or(0));
        case Term::Ir:
            return as_double(k.ir);
    }
    return 0;
}

Matrix features(const std::vector<KernelResult>& kernels, const std::vector<Term>& terms) {
    Matrix out;
    out.reserve(kernels.size());
    for (const auto& k : kernels) {
        std::vector<double> row;
        for (const auto t : terms)
            row.push_back(term_value(k, t, terms));
        out.push_back(std::move(row));
    }
    return out;
}

Agreement evaluate(const WeightSet& set, const std::vector<KernelResult>& kernels, double scale) {
    return agree_at(costs(features(kernels, set.terms), set.weights), medians(kernels), scale);
}

std::vector<WeightSet> weight_sets(const std::vector<KernelResult>& sweep,
                                   const std::vector<KernelResult>& programs,
                                   const ModelOptions& options) {
    if (sweep.size() < 3) {
        throw EnvironmentError(
            fmt::format("calibration needs at least 3 kernels to fit 3 weights, not {}",
                        sweep.size()),
            "give more working-set sizes with --sizes");
    }
    std::vector<WeightSet> sets;
    const auto presets = [&](bool with_mispredicts) {
        for (const auto& p : metrics::weight_presets()) {
            if (!p.weights.instructions_only) sets.push_back(preset_set(p, with_mispredicts));
        }
    };
    const auto models = fitted_models(options);
    presets(false);
    sets.push_back(fitted_set(models[0].first, models[0].second, sweep, options.objective));
    if (std::all_of(sets.back().weights.begin(), sets.back().weights.end(),
                    [](double w) { return w == 0; })) {
        throw EnvironmentError(
            "no non-negative weights fit the timings: the measured times do "
            "not grow with any cache level's hits",
            "check the kernels' timings in the table; calibrate on a quiet "
            "machine");
    }
    if (options.mispredicts) presets(true);
    for (std::size_t m = 1; m < models.size(); ++m)
        sets.push_back(fitted_set(models[m].first, models[m].second, sweep, options.objective));
    const auto time = medians(sweep);
    for (auto& s : sets) {
        s.agreement = agree(costs(features(sweep, s.terms), s.weights), time, options.objective);
        if (!programs.empty()) s.programs = evaluate(s, programs, s.agreement.scale);
    }
    return sets;
}

metrics::Weights usable_fit(const std::vector<WeightSet>& sets, const WeightSet** chosen) {
    const WeightSet* best = nullptr;
    for (const auto& s : sets) {
        if (s.name == "fitted" && best == nullptr) best = &s;
        if (s.name == "fitted + mispredicts") best = &s;
    }
    if (best == nullptr) throw std::logic_error("usable_fit: no fitted weight set");
    if (chosen != nullptr) *chosen = best;
    const auto w = [&](Term t) -> std::uint64_t {
        for (std::size_t i = 0; i < best->terms.size(); ++i) {
            if (best->terms[i] == t)
                return static_cast<std::uint64_t>(std::llround(best->weights[i]));
        }
        return 0;
    };
    return metrics::Weights{"calibrated", w(Term::L1), w(Term::LL),
                            w(Term::Ram), false,       w(Term::Mispredicts)};
}

}  // namespace cgbench::calibrate
