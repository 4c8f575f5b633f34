#pragma once
// The one table of metrics: every quantity a result can be compared, gated, explained and
// listed by. A metric is named by a typed key (Metric), never by a string; its name (the
// threshold grammar's METRIC, the JSON "metric" values), column label, help text and how its
// value is read all come from kMetrics, checked by static_assert. The events' rows are made
// from kEvents, so an event is still spelled only there.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "metrics/events.hpp"
#include "metrics/score.hpp"

namespace cgbench::metrics {

// The derived cache-level hits (score.hpp's Derived), as metrics.
enum class Hits : std::uint8_t { L1, LL, Ram };

// One derived hits metric: what kMetrics lists for it.
struct HitsInfo {
    Hits id;
    std::string_view name;         // "l1_hits": as the threshold grammar and JSON name it
    std::string_view label;        // "L1 hits": a column title
    std::string_view description;  // one line for help text and reports
};

// The derived hits in enum order (checked below), as kMetrics lists them.
inline constexpr std::array kHits{
    HitsInfo{Hits::L1, "l1_hits", "L1 hits", "references served by L1"},
    HitsInfo{Hits::LL, "ll_hits", "LL hits", "L1 misses served by LL"},
    HitsInfo{Hits::Ram, "ram_hits", "RAM hits", "LL misses (RAM)"},
};

// What a metric is made of, and so how its value is read.
enum class MetricKind : std::uint8_t {
    Cost,   // the weighted cost of the result
    Event,  // one Cachegrind event count
    Hits,   // one of the derived cache-level hits
};

// A typed metric key: a small value, compared and ordered by its place in kMetrics.
class Metric {
  public:
    // The cost (also what a default-constructed key names).
    constexpr Metric() = default;
    static constexpr Metric cost() { return Metric(); }
    static constexpr Metric event(Event e) { return Metric(MetricKind::Event, index_of(e)); }
    static constexpr Metric hits(Hits h) {
        return Metric(MetricKind::Hits, static_cast<std::size_t>(h));
    }

    constexpr MetricKind kind() const { return kind_; }
    // The event of an Event metric; only meaningful when kind() is Event.
    constexpr Event as_event() const { return static_cast<Event>(code_); }
    // The hits of a Hits metric; only meaningful when kind() is Hits.
    constexpr Hits as_hits() const { return static_cast<Hits>(code_); }
    // Its row in kMetrics: the cost, the events in kEvents order, then the hits.
    constexpr std::size_t index() const;

    // "cost", "Ir", "l1_hits": the threshold grammar's METRIC and the JSON "metric" value.
    std::string_view name() const;
    // "cost", "Ir", "L1 hits": a column title.
    std::string_view label() const;
    // One line for help text and reports.
    std::string_view description() const;

    // Its value in a measurement made of `events`, `derived` and `cost`; nullopt when the
    // measurement lacks it (the event was not counted, no cache simulation).
    std::optional<std::uint64_t> value(const EventCounts& events,
                                       const std::optional<Derived>& derived,
                                       std::uint64_t cost) const;

    friend constexpr bool operator==(Metric, Metric) = default;
    friend constexpr std::strong_ordering operator<=>(Metric a, Metric b) {
        return a.index() <=> b.index();
    }

  private:
    constexpr Metric(MetricKind kind, std::size_t code)
        : kind_(kind), code_(static_cast<std::uint8_t>(code)) {}

    MetricKind kind_ = MetricKind::Cost;
    std::uint8_t code_ = 0;
};

constexpr std::size_t Metric::index() const {
    switch (kind_) {
        case MetricKind::Cost:
            return 0;
        case MetricKind::Event:
            return 1 + code_;
        case MetricKind::Hits:
            return 1 + kEventCount + code_;
    }
    return 0;
}

// One row of kMetrics: a key and what is said of it (see Metric's accessors).
struct MetricInfo {
    Metric key;
    std::string_view name;
    std::string_view label;
    std::string_view description;
};

// How many metrics there are: the cost, the events, the hits.
inline constexpr std::size_t kMetricCount = 1 + kEventCount + kHits.size();

namespace detail {

// kMetrics in its fixed order: the cost, every event of kEvents, the derived hits.
constexpr std::array<MetricInfo, kMetricCount> metric_table() {
    std::array<MetricInfo, kMetricCount> out{};
    std::size_t i = 0;
    out[i++] = {Metric::cost(), "cost", "cost",
                "the weighted cost: L1, LL and RAM hits times their weights (Ir with --weights "
                "ir)"};
    for (const auto& e : kEvents)
        out[i++] = {Metric::event(e.id), e.name, e.name, e.description};
    for (const auto& h : kHits)
        out[i++] = {Metric::hits(h.id), h.name, h.label, h.description};
    return out;
}

}  // namespace detail

// Every metric, in the order names, help text and listings use.
inline constexpr std::array<MetricInfo, kMetricCount> kMetrics = detail::metric_table();

// The table is indexed by the key: entry i must be the metric whose index() is i, and the
// hits must be listed in enum order.
constexpr bool metric_table_is_ordered() {
    for (std::size_t i = 0; i < kMetricCount; ++i) {
        if (kMetrics[i].key.index() != i || kMetrics[i].name.empty()) return false;
    }
    for (std::size_t i = 0; i < kHits.size(); ++i) {
        if (static_cast<std::size_t>(kHits[i].id) != i) return false;
    }
    return true;
}
static_assert(metric_table_is_ordered(), "kMetrics must list every metric at its index()");
static_assert(kHits.size() == static_cast<std::size_t>(Hits::Ram) + 1,
              "every Hits needs a kHits entry");

// The row of `m` in kMetrics.
constexpr const MetricInfo& info(Metric m) {
    return kMetrics[m.index()];
}

inline std::string_view Metric::name() const {
    return info(*this).name;
}
inline std::string_view Metric::label() const {
    return info(*this).label;
}
inline std::string_view Metric::description() const {
    return info(*this).description;
}

// The metric `name` names: its name in kMetrics in any case ("IR", "L1_Hits"); nullopt for
// anything else.
std::optional<Metric> metric_from_name(std::string_view name);

// Every metric's name in table order, comma-separated (for help and messages).
std::string metric_names();

}  // namespace cgbench::metrics
