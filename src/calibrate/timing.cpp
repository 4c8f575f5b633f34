#include "calibrate/timing.hpp"

#include <cmath>
#include <stdexcept>

#include "calibrate/fit.hpp"
#include "util/strings.hpp"

namespace cgbench::calibrate {

std::string_view to_string(Clock clock) {
    switch (clock) {
        case Clock::Cycles:
            return "cycles";
        case Clock::Cpu:
            return "cpu";
        case Clock::Wall:
            return "wall";
    }
    return "cpu";
}

std::string_view unit_of(Clock clock) {
    return clock == Clock::Cycles ? "Mcycles" : "ms";
}

double in_units(Clock, double value) {
    return value / 1e6;  // ns -> ms, cycles -> Mcycles
}

double value_on(const Sample& s, Clock clock) {
    switch (clock) {
        case Clock::Cycles:
            if (!s.cycles) throw std::logic_error("sample has no cycle count");
            return *s.cycles;
        case Clock::Cpu:
            return s.cpu_ns;
        case Clock::Wall:
            return s.wall_ns;
    }
    return s.cpu_ns;
}

std::optional<Sample> parse_sample_line(std::string_view line) {
    const auto fields = util::split(util::trim(line), ' ');
    if (fields.size() != 4 || fields[0] != "sample") return std::nullopt;
    const auto field = [&](std::size_t i, std::string_view key) -> std::optional<std::string_view> {
        const auto f = fields[i];
        if (f.size() <= key.size() || f.substr(0, key.size()) != key || f[key.size()] != '=') {
            return std::nullopt;
        }
        return f.substr(key.size() + 1);
    };
    const auto cycles = field(1, "cycles");
    const auto cpu = field(2, "cpu_ns");
    const auto wall = field(3, "wall_ns");
    if (!cycles || !cpu || !wall) return std::nullopt;
    Sample s;
    const auto cpu_v = util::parse_u64(*cpu);
    const auto wall_v = util::parse_u64(*wall);
    if (!cpu_v || !wall_v) return std::nullopt;
    s.cpu_ns = static_cast<double>(*cpu_v);
    s.wall_ns = static_cast<double>(*wall_v);
    if (*cycles != "-") {
        const auto c = util::parse_u64(*cycles);
        if (!c) return std::nullopt;
        s.cycles = static_cast<double>(*c);
    }
    return s;
}

Timing summarize(std::vector<double> values) {
    Timing t;
    t.values = values;
    t.median = median(values);
    std::vector<double> deviations;
    for (const double v : values)
        deviations.push_back(std::fabs(v - t.median));
    const double mad = median(deviations);
    t.spread = t.median > 0 ? 1.4826 * mad / t.median : 0;
    t.uncertainty = 1.2533 * t.spread / std::sqrt(static_cast<double>(values.size()));
    return t;
}

}  // namespace cgbench::calibrate
