#include "metrics/metric.hpp"

#include <algorithm>
#include <cctype>

namespace cgbench::metrics {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::uint64_t hits_of(const Derived& d, Hits h) {
    switch (h) {
        case Hits::L1:
            return d.l1_hits;
        case Hits::LL:
            return d.ll_hits;
        case Hits::Ram:
            return d.ram_hits;
    }
    return 0;
}

}  // namespace

std::optional<std::uint64_t> Metric::value(const EventCounts& events,
                                           const std::optional<Derived>& derived,
                                           std::uint64_t cost) const {
    switch (kind_) {
        case MetricKind::Cost:
            return cost;
        case MetricKind::Event:
            if (!events.has(as_event())) return std::nullopt;
            return events.get(as_event());
        case MetricKind::Hits:
            if (!derived) return std::nullopt;
            return hits_of(*derived, as_hits());
    }
    return std::nullopt;
}

std::optional<Metric> metric_from_name(std::string_view name) {
    for (const auto& m : kMetrics) {
        if (iequals(name, m.name)) return m.key;
    }
    return std::nullopt;
}

std::string metric_names() {
    std::string out;
    for (const auto& m : kMetrics) {
        if (!out.empty()) out += ", ";
        out += m.name;
    }
    return out;
}

}  // namespace cgbench::metrics
