#include "compare/threshold.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
    throw UsageError(fmt::format("invalid threshold '{}': {}", util::printable(spec), why),
                     std::string(kThresholdHint));
}

Threshold parse_value(std::string_view spec, std::string_view value) {
    Threshold t;
    if (value == "off") {
        t.off = true;
        return t;
    }
    const auto bar = value.find('|');
    const std::string_view rel = util::trim(value.substr(0, bar));
    if (rel.empty() || rel.back() != '%') {
        bad_spec(spec, fmt::format("'{}' needs a percentage such as 1% (or off)",
                                   util::printable(value)));
    }
    const auto pct = util::parse_seconds(util::trim(rel.substr(0, rel.size() - 1)));
    if (!pct) bad_spec(spec, fmt::format("'{}' is not a percentage", util::printable(rel)));
    t.relative = *pct / 100.0;
    if (bar != std::string_view::npos) {
        const auto abs = util::parse_u64(util::trim(value.substr(bar + 1)));
        if (!abs) {
            bad_spec(spec, fmt::format("the floor after | in '{}' is not a whole number",
                                       util::printable(value)));
        }
        t.absolute = *abs;
    }
    return t;
}

// One [METRIC=]VALUE of a spec; the metric defaults to cost.
ThresholdRule parse_item(std::string_view spec, const std::string& pattern,
                         std::string_view item) {
    item = util::trim(item);
    if (item.empty()) bad_spec(spec, "an empty rule (a comma too many?)");
    const auto eq = item.find('=');
    auto metric = metrics::Metric::cost();
    std::string_view value = item;
    if (eq != std::string_view::npos) {
        const auto known = metrics::metric_from_name(util::trim(item.substr(0, eq)));
        if (!known) {
            bad_spec(spec, fmt::format("unknown metric '{}' (known: {})",
                                       util::printable(util::trim(item.substr(0, eq))),
                                       metrics::metric_names()));
        }
        metric = *known;
        value = util::trim(item.substr(eq + 1));
    }
    return ThresholdRule{pattern, metric, parse_value(spec, value)};
}

}  // namespace

std::vector<ThresholdRule> parse_threshold(std::string_view text) {
    const std::string_view spec = util::trim(text);
    // Values never hold ':', so the last ':' ends the pattern (which may itself hold ':').
    const auto colon = spec.rfind(':');
    std::string pattern;
    std::string_view items = spec;
    if (colon != std::string_view::npos) {
        pattern = std::string(util::trim(spec.substr(0, colon)));
        items = util::trim(spec.substr(colon + 1));
        if (pattern.empty()) bad_spec(spec, "the benchmark pattern before ':' is empty");
    }
    if (items.empty()) bad_spec(spec, "no limit given");
    std::vector<ThresholdRule> rules;
    for (const auto item : util::split(items, ',')) {
        auto rule = parse_item(spec, pattern, item);
        const bool twice = std::any_of(rules.begin(), rules.end(),
                                       [&rule](const auto& r) { return r.metric == rule.metric; });
        if (twice) bad_spec(spec, fmt::format("{} is limited twice", rule.metric.name()));
        rules.push_back(std::move(rule));
    }
    return rules;
}

std::string validate_threshold(std::string_view spec) {
    parse_threshold(spec);
    return std::string(util::trim(spec));
}

std::string Threshold::describe() const {
    if (off) return "off";
    const std::string rel = fmt::format("+{:.2f}%", relative * 100.0);
    return absolute == 0 ? rel : fmt::format("{} and {}", rel, util::with_commas(absolute));
}

ThresholdSet::ThresholdSet() {
    rules_.push_back(
        {"", metrics::Metric::cost(), Threshold{kDefaultCostRelative, kDefaultCostFloor, false}});
}

void ThresholdSet::add(ThresholdRule rule) {
    rules_.push_back(std::move(rule));
}

void ThresholdSet::add(std::string_view spec) {
    for (auto& rule : parse_threshold(spec))
        add(std::move(rule));
}

std::vector<std::pair<metrics::Metric, Threshold>> ThresholdSet::for_benchmark(
    std::string_view name, std::string_view recorded) const {
    std::vector<std::pair<metrics::Metric, Threshold>> chosen;
    const std::string subject(name);
    const auto set = [&chosen, &subject](const ThresholdRule& r, bool globs) {
        if (r.pattern.empty() == globs) return;
        if (globs && ::fnmatch(r.pattern.c_str(), subject.c_str(), 0) != 0) return;
        const auto it = std::find_if(chosen.begin(), chosen.end(),
                                     [&r](const auto& c) { return c.first == r.metric; });
        if (it != chosen.end()) {
            it->second = r.threshold;
        } else {
            chosen.emplace_back(r.metric, r.threshold);
        }
    };
    const std::vector<ThresholdRule> from_result =
        util::trim(recorded).empty() ? std::vector<ThresholdRule>() : parse_threshold(recorded);
    // Layers, lowest first: the default, the result's own threshold, the rules added.
    set(rules_.front(), false);
    for (const bool globs : {false, true}) {
        for (const auto& r : from_result)
            set(r, globs);
    }
    for (const bool globs : {false, true}) {
        for (std::size_t i = 1; i < rules_.size(); ++i)
            set(rules_[i], globs);
    }
    std::erase_if(chosen, [](const auto& c) { return c.second.off; });
    std::stable_partition(chosen.begin(), chosen.end(),
                          [](const auto& c) { return c.first == metrics::Metric::cost(); });
    return chosen;
}

}  // namespace cgbench::compare
