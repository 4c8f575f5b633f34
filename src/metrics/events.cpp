#include "metrics/events.hpp"

namespace cgbench::metrics {

std::optional<Event> event_from_name(std::string_view name) {
    for (const auto& e : kEvents) {
        if (e.name == name) return e.id;
    }
    return std::nullopt;
}

bool EventCounts::has_cache_events() const {
    for (const auto& e : kEvents) {
        if (e.source == EventSource::CacheSim && !has(e.id)) return false;
    }
    return has(Event::Ir);
}

}  // namespace cgbench::metrics
