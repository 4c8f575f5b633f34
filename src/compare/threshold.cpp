#include "compare/threshold.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "core/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

constexpr std::string_view kDerivedNames[] = {"l1_hits", "ll_hits", "ram_hits"};

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
    throw UsageError(fmt::format("invalid --threshold '{}': {}", util::printable(spec), why),
                     "use [GLOB:]METRIC=REL%[|ABS],..., e.g. cost=1%,Ir=0.5%|10000 or "
                     "'parse/*:cost=2%'");
}

Threshold parse_value(std::string_view spec, std::string_view value) {
    Threshold t;
    if (value == "off") {
        t.off = true;
        return t;
    }
    const auto bar = value.find('|');
    const std::string_view rel = value.substr(0, bar);
    if (rel.empty() || rel.back() != '%') {
        bad_spec(spec, fmt::format("'{}' needs a percentage such as 1% (or off)",
                                   util::printable(value)));
    }
    const auto pct = util::parse_seconds(rel.substr(0, rel.size() - 1));
    if (!pct) bad_spec(spec, fmt::format("'{}' is not a percentage", util::printable(rel)));
    t.relative = *pct / 100.0;
    if (bar != std::string_view::npos) {
        const auto abs = util::parse_u64(value.substr(bar + 1));
        if (!abs) {
            bad_spec(spec, fmt::format("the floor after | in '{}' is not a whole number",
                                       util::printable(value)));
        }
        t.absolute = *abs;
    }
    return t;
}

}  // namespace

std::optional<std::string> canonical_metric(std::string_view name) {
    if (iequals(name, "cost")) return "cost";
    for (const auto& e : metrics::kEvents) {
        if (iequals(name, e.name)) return std::string(e.name);
    }
    for (const auto d : kDerivedNames) {
        if (iequals(name, d)) return std::string(d);
    }
    return std::nullopt;
}

std::string metric_names() {
    std::string out = "cost";
    for (const auto& e : metrics::kEvents)
        out += fmt::format(", {}", e.name);
    for (const auto d : kDerivedNames)
        out += fmt::format(", {}", d);
    return out;
}

std::optional<std::uint64_t> metric_value(const BenchmarkResult& b, std::string_view metric) {
    if (b.status != BenchStatus::Ok) return std::nullopt;
    if (metric == "cost") return b.cost;
    if (const auto e = metrics::event_from_name(metric)) {
        if (b.events.has(*e)) return b.events.get(*e);
        return std::nullopt;
    }
    if (!b.derived) return std::nullopt;
    if (metric == "l1_hits") return b.derived->l1_hits;
    if (metric == "ll_hits") return b.derived->ll_hits;
    if (metric == "ram_hits") return b.derived->ram_hits;
    return std::nullopt;
}

std::string Threshold::describe() const {
    if (off) return "off";
    const std::string rel = fmt::format("+{:.2f}%", relative * 100.0);
    return absolute == 0 ? rel : fmt::format("{} and {}", rel, util::with_commas(absolute));
}

ThresholdSet::ThresholdSet() {
    rules_.push_back({"", "cost", Threshold{kDefaultCostRelative, kDefaultCostFloor, false}});
}

void ThresholdSet::add(ThresholdRule rule) {
    rules_.push_back(std::move(rule));
}

void ThresholdSet::add(std::string_view spec) {
    // Values never hold ':', so the last ':' ends the pattern (which may itself hold ':').
    const auto colon = spec.rfind(':');
    std::string pattern;
    std::string_view items = spec;
    if (colon != std::string_view::npos) {
        pattern = std::string(spec.substr(0, colon));
        items = spec.substr(colon + 1);
        if (pattern.empty()) bad_spec(spec, "the benchmark pattern before ':' is empty");
    }
    if (items.empty()) bad_spec(spec, "no METRIC=VALUE given");
    for (const auto item : util::split(items, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string_view::npos) {
            bad_spec(spec, fmt::format("'{}' is not METRIC=VALUE", util::printable(item)));
        }
        const auto metric = canonical_metric(item.substr(0, eq));
        if (!metric) {
            bad_spec(spec, fmt::format("unknown metric '{}' (known: {})",
                                       util::printable(item.substr(0, eq)), metric_names()));
        }
        add(ThresholdRule{pattern, *metric, parse_value(spec, item.substr(eq + 1))});
    }
}

std::vector<std::pair<std::string, Threshold>> ThresholdSet::for_benchmark(
    std::string_view name) const {
    std::vector<std::pair<std::string, Threshold>> chosen;
    const auto set = [&chosen](const ThresholdRule& r) {
        const auto it = std::find_if(chosen.begin(), chosen.end(),
                                     [&r](const auto& c) { return c.first == r.metric; });
        if (it != chosen.end()) {
            it->second = r.threshold;
        } else {
            chosen.emplace_back(r.metric, r.threshold);
        }
    };
    const std::string subject(name);
    for (const auto& r : rules_) {
        if (r.pattern.empty()) set(r);
    }
    for (const auto& r : rules_) {
        if (!r.pattern.empty() && ::fnmatch(r.pattern.c_str(), subject.c_str(), 0) == 0) set(r);
    }
    std::erase_if(chosen, [](const auto& c) { return c.second.off; });
    std::stable_partition(chosen.begin(), chosen.end(),
                          [](const auto& c) { return c.first == "cost"; });
    return chosen;
}

}  // namespace cgbench::compare
