#pragma once
// The invariant every parsed Profile keeps, checked by the fuzz targets: per-function costs
// add up to no more than the totals, event by event (equal when every cost line belongs to
// a function), and every column has a name. Traps otherwise, which the fuzzer reports.

#include <array>
#include <cstdint>

#include "valgrind/profile.hpp"

namespace cgbench::fuzz {

inline void check_profile(const valgrind::Profile& p) {
    if (p.columns.size() != p.column_names.size()) __builtin_trap();
    std::array<std::uint64_t, metrics::kEventCount> sum{};
    for (const auto& f : p.functions) {
        for (const auto& e : metrics::kEvents) {
            if (!f.counts.has(e.id)) continue;
            if (!p.totals.has(e.id)) __builtin_trap();  // an event the file does not record
            if (__builtin_add_overflow(sum[metrics::index_of(e.id)], f.counts.get(e.id),
                                       &sum[metrics::index_of(e.id)])) {
                __builtin_trap();
            }
        }
    }
    for (const auto& e : metrics::kEvents) {
        if (sum[metrics::index_of(e.id)] > p.totals.get(e.id)) __builtin_trap();
    }
}

}  // namespace cgbench::fuzz
