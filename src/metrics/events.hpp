#pragma once
// The one table of Cachegrind events. Parsing (header names), scoring (which counts feed
// the derived hits), JSON keys and help text all come from kEvents; nothing else spells an
// event name.

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cgbench::metrics {

enum class Event : std::uint8_t {
    Ir,
    I1mr,
    ILmr,
    Dr,
    D1mr,
    DLmr,
    Dw,
    D1mw,
    DLmw,
    Bc,
    Bcm,
    Bi,
    Bim
};

// Which Valgrind option produces an event.
enum class EventSource : std::uint8_t { Always, CacheSim, BranchSim };

struct EventInfo {
    Event id;
    std::string_view name;         // as in the `events:` line; also the JSON key
    std::string_view description;  // one line for help text and reports
    EventSource source;
};

inline constexpr std::array kEvents{
    EventInfo{Event::Ir, "Ir", "instructions executed", EventSource::Always},
    EventInfo{Event::I1mr, "I1mr", "L1 instruction-cache read misses", EventSource::CacheSim},
    EventInfo{Event::ILmr, "ILmr", "last-level instruction read misses", EventSource::CacheSim},
    EventInfo{Event::Dr, "Dr", "data reads", EventSource::CacheSim},
    EventInfo{Event::D1mr, "D1mr", "L1 data-cache read misses", EventSource::CacheSim},
    EventInfo{Event::DLmr, "DLmr", "last-level data read misses", EventSource::CacheSim},
    EventInfo{Event::Dw, "Dw", "data writes", EventSource::CacheSim},
    EventInfo{Event::D1mw, "D1mw", "L1 data-cache write misses", EventSource::CacheSim},
    EventInfo{Event::DLmw, "DLmw", "last-level data write misses", EventSource::CacheSim},
    EventInfo{Event::Bc, "Bc", "conditional branches executed", EventSource::BranchSim},
    EventInfo{Event::Bcm, "Bcm", "conditional branches mispredicted", EventSource::BranchSim},
    EventInfo{Event::Bi, "Bi", "indirect branches executed", EventSource::BranchSim},
    EventInfo{Event::Bim, "Bim", "indirect branches mispredicted", EventSource::BranchSim},
};

inline constexpr std::size_t kEventCount = kEvents.size();

constexpr std::size_t index_of(Event e) {
    return static_cast<std::size_t>(e);
}
constexpr const EventInfo& info(Event e) {
    return kEvents[index_of(e)];
}

// The table is indexed by the enum: entry i must describe Event(i).
constexpr bool table_is_ordered() {
    for (std::size_t i = 0; i < kEventCount; ++i) {
        if (index_of(kEvents[i].id) != i) return false;
    }
    return true;
}
static_assert(table_is_ordered(), "kEvents must list events in enum order");
static_assert(kEventCount == index_of(Event::Bim) + 1, "every Event needs a kEvents entry");

// Looks an event up by its Cachegrind/Callgrind name ("Ir", "D1mr"...).
std::optional<Event> event_from_name(std::string_view name);

// A set of counts for the events a run actually measured. Events not measured (cache
// simulation off, branch simulation off) are absent, not zero.
class EventCounts {
  public:
    bool has(Event e) const { return present_.test(index_of(e)); }
    std::uint64_t get(Event e) const { return values_[index_of(e)]; }
    void set(Event e, std::uint64_t v) {
        values_[index_of(e)] = v;
        present_.set(index_of(e));
    }
    bool empty() const { return present_.none(); }
    // Adds `other` event by event; an event present in either is present in the sum. Throws
    // UsageError when a sum overflows 64 bits.
    void add(const EventCounts& other);
    // True when every cache-simulation event is present (what the cost formula needs).
    bool has_cache_events() const;
    friend bool operator==(const EventCounts&, const EventCounts&) = default;

  private:
    std::array<std::uint64_t, kEventCount> values_{};
    std::bitset<kEventCount> present_;
};

}  // namespace cgbench::metrics
