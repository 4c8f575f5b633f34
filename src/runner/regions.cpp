#include "runner/regions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

constexpr std::string_view kBeginPrefix = "Client Request: cgbench:begin:";
constexpr std::string_view kEndPrefix = "Client Request: cgbench:end:";

std::string quoted_name(std::string_view name) {
    return "'" + util::printable(name) + "'";
}

}  // namespace

std::optional<RegionMarker> region_marker(std::string_view trigger) {
    if (util::starts_with(trigger, kBeginPrefix)) {
        return RegionMarker{true, trigger.substr(kBeginPrefix.size())};
    }
    if (util::starts_with(trigger, kEndPrefix)) {
        return RegionMarker{false, trigger.substr(kEndPrefix.size())};
    }
    return std::nullopt;
}

bool RegionNesting::apply(bool begin, std::string_view name) {
    if (!error_.empty()) return false;
    if (name.find('\n') != std::string_view::npos) {
        error_ = fmt::format(
            "marked a region named {}, which holds a newline (region names "
            "must be one line)",
            quoted_name(name));
        return false;
    }
    const auto it = std::find_if(regions_.begin(), regions_.end(),
                                 [&](const RegionCost& r) { return r.name == name; });
    const auto index = static_cast<std::size_t>(it - regions_.begin());
    const bool is_open = std::find(open_.begin(), open_.end(), index) != open_.end();
    if (begin) {
        if (it == regions_.end()) regions_.push_back(RegionCost{std::string(name), 0, {}});
        if (!is_open) ++regions_[index].entries;
        open_.push_back(index);
    } else if (!is_open) {
        error_ = fmt::format("ended region {}, which never began", quoted_name(name));
    } else if (open_.back() != index) {
        error_ = fmt::format(
            "ended region {} while {}, begun inside it, was still open "
            "(regions must nest)",
            quoted_name(name), quoted_name(regions_[open_.back()].name));
    } else {
        open_.pop_back();
    }
    return error_.empty();
}

bool RegionNesting::finish() {
    if (error_.empty() && !open_.empty()) {
        error_ = fmt::format("began region {} and never ended it",
                             quoted_name(regions_[open_.back()].name));
    }
    return error_.empty();
}

RegionAttribution attribute_regions(const std::vector<metrics::Profile>& parts) {
    RegionNesting nesting;
    std::vector<metrics::ProfileSum> sums;
    for (const auto& part : parts) {
        std::vector<std::size_t> distinct = nesting.open();
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        for (const auto r : distinct)
            sums[r].add(part);
        const auto marker = region_marker(part.trigger);
        if (!marker) continue;
        if (!nesting.apply(marker->begin, marker->name)) break;
        sums.resize(nesting.regions().size());
    }
    nesting.finish();
    RegionAttribution out{std::move(nesting.regions()), nesting.error()};
    for (std::size_t r = 0; r < out.regions.size() && r < sums.size(); ++r)
        out.regions[r].profile = sums[r].take();
    return out;
}

RegionAttribution regions_of(const std::vector<valgrind::RegionMark>& marks) {
    RegionNesting nesting;
    for (const auto& m : marks) {
        if (!nesting.apply(m.begin, m.name)) break;
    }
    nesting.finish();
    return {std::move(nesting.regions()), nesting.error()};
}

}  // namespace cgbench::runner
