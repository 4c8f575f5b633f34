#include "valgrind/profile.hpp"

#include <fmt/format.h>

#include <type_traits>
#include <utility>

#include "base/errors.hpp"

namespace cgbench::valgrind {

std::optional<std::size_t> Profile::column_of(metrics::Event e) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == e) return i;
    }
    return std::nullopt;
}

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
    for (auto& f : part.functions) {
        const auto [it, added] = index_.try_emplace({f.file, f.name}, sum_.functions.size());
        if (!added) {
            sum_.functions[it->second].counts.add(f.counts);
        } else if constexpr (std::is_rvalue_reference_v<P&&>) {
            sum_.functions.push_back(std::move(f));
        } else {
            sum_.functions.push_back(f);
        }
    }
    for (auto& l : part.lines) {
        const auto [it, added] =
            line_index_.try_emplace({l.file, l.function, l.line}, sum_.lines.size());
        if (!added) {
            sum_.lines[it->second].counts.add(l.counts);
        } else if constexpr (std::is_rvalue_reference_v<P&&>) {
            sum_.lines.push_back(std::move(l));
        } else {
            sum_.lines.push_back(l);
        }
    }
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

}  // namespace cgbench::valgrind
