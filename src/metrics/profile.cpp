#include "metrics/profile.hpp"

#include <fmt/format.h>

#include <type_traits>
#include <utility>

#include "base/errors.hpp"

namespace cgbench::metrics {

std::optional<std::size_t> Profile::column_of(metrics::Event e) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == e) return i;
    }
    return std::nullopt;
}

namespace {

// Adds `entry`'s counts to the entry of `out` that `index` holds for `key`, or appends `entry`
// (moved when `kMove`: the part is not used again) and records where.
template <bool kMove, typename Index, typename Item, typename Entry>
void merge_profile_entry(Index& index, typename Index::key_type key, Item& entry,
                         std::vector<Entry>& out) {
    const auto [it, added] = index.try_emplace(std::move(key), out.size());
    if (!added) {
        out[it->second].counts.add(entry.counts);
    } else if constexpr (kMove) {
        out.push_back(std::move(entry));
    } else {
        out.push_back(entry);
    }
}

}  // namespace

template <typename P>
void ProfileSum::add_part(P&& part) {
    if (sum_.column_names.empty()) {
        sum_.tool = part.tool;
        sum_.columns = part.columns;
        sum_.column_names = part.column_names;
        sum_.has_lines = part.has_lines;
    } else if (sum_.column_names != part.column_names) {
        throw UsageError(
            part.part > 0
                ? fmt::format("dump part {} records other events than the first", part.part)
                : std::string("a profile records other events than the first"),
            "the profiles are corrupt or not from one Valgrind run");
    }
    sum_.totals.add(part.totals);
    sum_.has_lines = sum_.has_lines && part.has_lines;
    constexpr bool kMove = std::is_rvalue_reference_v<P&&>;
    for (auto& f : part.functions)
        merge_profile_entry<kMove>(index_, {f.file, f.name}, f, sum_.functions);
    for (auto& l : part.lines)
        merge_profile_entry<kMove>(line_index_, {l.file, l.function, l.line}, l, sum_.lines);
}

void ProfileSum::add(const Profile& part) {
    add_part(part);
}

void ProfileSum::add(Profile&& part) {
    add_part(std::move(part));
}

Profile ProfileSum::take() {
    Profile out = std::move(sum_);
    sum_ = Profile{};
    index_.clear();
    line_index_.clear();
    return out;
}

}  // namespace cgbench::metrics
