#pragma once
// Series models for the HTML history report tests.

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/history_store.hpp"

namespace cgbench::testing_fixtures {

// Result `index` of a series: started on day index+1, commit "c<index>...", Ir 80% of the
// cost; no cost means it failed.
inline store::KeyedPoint keyed_point(int index, std::optional<std::uint64_t> cost,
                                     std::string key = "00112233aabbccdd") {
    store::KeyedPoint k;
    auto& p = k.point;
    p.run_id = fmt::format("20261122T0{}0000Z-run{}", index % 10, index);
    p.started = fmt::format("2026-11-{:02}T03:15:00Z", index + 1);
    p.git.commit = fmt::format("c{:02}456789abcdef0123456789abcdef0123456", index);
    p.git.branch = "main";
    p.git.dirty = false;
    if (cost) {
        p.cost = cost;
        p.ir = *cost * 4 / 5;
    } else {
        p.status = BenchStatus::Failed;
    }
    k.fingerprint_key = std::move(key);
    return k;
}

// Sets each point's change against the previous ok point with the same key (as the store).
inline store::BenchmarkSeries series_of(std::string name, std::vector<store::KeyedPoint> points) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        auto& p = points[i].point;
        if (!p.cost) continue;
        for (std::size_t j = i; j-- > 0;) {
            const auto& q = points[j];
            if (q.point.cost && q.fingerprint_key == points[i].fingerprint_key) {
                p.change = (static_cast<double>(*p.cost) - static_cast<double>(*q.point.cost)) /
                           static_cast<double>(*q.point.cost);
                break;
            }
        }
    }
    return {std::move(name), std::move(points)};
}

}  // namespace cgbench::testing_fixtures
