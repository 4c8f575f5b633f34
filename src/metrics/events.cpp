#include "metrics/events.hpp"

#include "base/errors.hpp"

namespace cgbench::metrics {

std::optional<Event> event_from_name(std::string_view name) {
    for (const auto& e : kEvents) {
        if (e.name == name) return e.id;
    }
    return std::nullopt;
}

void EventCounts::add(const EventCounts& other) {
    for (std::size_t i = 0; i < kEventCount; ++i) {
        if (!other.present_.test(i)) continue;
        if (__builtin_add_overflow(values_[i], other.values_[i], &values_[i])) {
            throw UsageError("event counts overflow 64 bits when added",
                             "the profile is corrupt or not from Valgrind");
        }
        present_.set(i);
    }
}

bool EventCounts::has_cache_events() const {
    for (const auto& e : kEvents) {
        if (e.source == EventSource::CacheSim && !has(e.id)) return false;
    }
    return has(Event::Ir);
}

}  // namespace cgbench::metrics
