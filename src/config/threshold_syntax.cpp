#include "config/threshold_syntax.hpp"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "core/errors.hpp"
#include "metrics/events.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool known_metric(std::string_view name) {
    const std::string n = lower(name);
    if (n == "cost" || n == "l1_hits" || n == "ll_hits" || n == "ram_hits") return true;
    for (const auto& e : metrics::kEvents) {
        if (lower(e.name) == n) return true;
    }
    return false;
}

// Why `limit` is not "[metric=]P%[|floor]", or empty when it is. Fills `metric`.
std::string check_limit(std::string_view limit, std::string& metric) {
    metric = "cost";
    if (const auto eq = limit.find('='); eq != std::string_view::npos) {
        metric = lower(util::trim(limit.substr(0, eq)));
        if (!known_metric(metric)) return fmt::format("unknown metric '{}'", metric);
        limit = util::trim(limit.substr(eq + 1));
    }
    std::string_view floor;
    if (const auto bar = limit.find('|'); bar != std::string_view::npos) {
        floor = util::trim(limit.substr(bar + 1));
        limit = util::trim(limit.substr(0, bar));
        if (!util::parse_u64(floor)) return fmt::format("floor '{}' is not a count", floor);
    }
    if (limit.empty() || limit.back() != '%' ||
        !util::parse_seconds(util::trim(limit.substr(0, limit.size() - 1)))) {
        return fmt::format("'{}' is not a percentage", limit);
    }
    return {};
}

}  // namespace

std::string validate_threshold(std::string_view text) {
    const std::string_view all = util::trim(text);
    std::set<std::string> seen;
    for (const auto part : util::split(all, ',')) {
        std::string metric;
        std::string why = check_limit(util::trim(part), metric);
        if (why.empty() && !seen.insert(metric).second) why = metric + " is limited twice";
        if (!why.empty()) {
            throw UsageError(
                fmt::format("invalid threshold '{}': {}", util::printable(all),
                            util::printable(why)),
                "write a percentage with an optional metric and floor, e.g. 1%, ir=0.5% or "
                "cost=2%|100000, several separated by commas");
        }
    }
    return std::string(all);
}

}  // namespace cgbench::config
