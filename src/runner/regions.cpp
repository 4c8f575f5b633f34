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

// Sums profiles into one, function by function.
class ProfileSum {
  public:
    void add(const valgrind::Profile& part, valgrind::Profile& into) {
        if (into.column_names.empty()) {
            into.tool = part.tool;
            into.columns = part.columns;
            into.column_names = part.column_names;
        } else if (into.column_names != part.column_names) {
            throw UsageError(
                fmt::format("dump part {} records other events than the first", part.part),
                "the profile is corrupt or not from one Callgrind run");
        }
        into.totals.add(part.totals);
        for (const auto& f : part.functions) {
            const auto [it, inserted] = index_.try_emplace({f.file, f.name}, into.functions.size());
            if (inserted) into.functions.push_back({f.file, f.name, {}});
            into.functions[it->second].counts.add(f.counts);
        }
    }

  private:
    std::map<std::pair<std::string, std::string>, std::size_t> index_;
};

std::string quoted(std::string_view name) {
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

RegionAttribution attribute_regions(const std::vector<valgrind::Profile>& parts) {
    RegionAttribution out;
    std::vector<ProfileSum> sums;
    std::vector<std::size_t> open;  // indexes into out.regions, innermost last
    for (const auto& part : parts) {
        std::vector<std::size_t> distinct = open;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        for (const auto r : distinct)
            sums[r].add(part, out.regions[r].profile);

        const auto marker = region_marker(part.trigger);
        if (!marker) continue;
        if (marker->name.find('\n') != std::string_view::npos) {
            out.error = fmt::format("marked a region named {}, which holds a newline (region "
                                    "names must be one line)",
                                    quoted(marker->name));
            return out;
        }
        const auto it = std::find_if(out.regions.begin(), out.regions.end(),
                                     [&](const RegionCost& r) { return r.name == marker->name; });
        const auto index = static_cast<std::size_t>(it - out.regions.begin());
        if (marker->begin) {
            if (it == out.regions.end()) {
                out.regions.push_back(RegionCost{std::string(marker->name), 0, {}});
                sums.emplace_back();
            }
            if (std::find(open.begin(), open.end(), index) == open.end())
                ++out.regions[index].entries;
            open.push_back(index);
        } else if (open.empty() || it == out.regions.end() ||
                   std::find(open.begin(), open.end(), index) == open.end()) {
            out.error = fmt::format("ended region {}, which never began", quoted(marker->name));
            return out;
        } else if (open.back() != index) {
            out.error = fmt::format(
                "ended region {} while {}, begun inside it, was still open "
                "(regions must nest)",
                quoted(marker->name), quoted(out.regions[open.back()].name));
            return out;
        } else {
            open.pop_back();
        }
    }
    if (!open.empty()) {
        out.error = fmt::format("began region {} and never ended it",
                                quoted(out.regions[open.back()].name));
    }
    return out;
}

}  // namespace cgbench::runner
