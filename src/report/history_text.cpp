#include "report/history_text.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace cgbench::report {

std::string short_time(std::string_view iso) {
    if (iso.size() < 16 || iso[10] != 'T') return util::printable(iso);
    return util::printable(fmt::format("{} {}", iso.substr(0, 10), iso.substr(11, 5)));
}

std::string short_commit(const std::optional<std::string>& commit) {
    if (!commit) return "-";
    return util::printable(commit->substr(0, 7));
}

}  // namespace cgbench::report
