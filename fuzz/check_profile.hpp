#pragma once
// The invariant every parsed Profile keeps, checked by the fuzz targets: per-function costs
// add up to no more than the totals, column for column (equal when every cost line belongs
// to a function), and every column has a name. Traps otherwise, which the fuzzer reports.

#include <cstdint>
#include <vector>

#include "valgrind/profile.hpp"

namespace cgbench::fuzz {

inline void check_profile(const valgrind::Profile& p) {
    if (p.columns.size() != p.column_names.size()) __builtin_trap();
    std::vector<std::uint64_t> sum(p.columns.size(), 0);
    for (const auto& f : p.functions) {
        if (f.counts.size() != sum.size()) __builtin_trap();
        for (std::size_t i = 0; i < sum.size(); ++i) {
            if (__builtin_add_overflow(sum[i], f.counts[i], &sum[i])) __builtin_trap();
        }
    }
    for (std::size_t i = 0; i < sum.size(); ++i) {
        if (p.columns[i] && !p.functions.empty() && sum[i] > p.totals.get(*p.columns[i])) {
            __builtin_trap();
        }
    }
}

}  // namespace cgbench::fuzz
