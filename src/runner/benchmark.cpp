#include "runner/benchmark.hpp"

#include <algorithm>
#include <filesystem>

#include "util/hash.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

std::string default_benchmark_name(const std::vector<std::string>& command) {
    if (command.empty()) return "benchmark";
    std::vector<std::string> parts = {std::filesystem::path(command.front()).filename().string()};
    parts.insert(parts.end(), command.begin() + 1, command.end());
    const auto whole = util::join(parts, " ");
    if (whole.size() <= kMaxDefaultNameBytes) return whole;
    std::size_t kept = 0;  // whole UTF-8 characters within the first 100 bytes
    for (std::string_view rest = whole; kept < 100;) {
        char32_t cp = 0;
        const std::size_t n = std::max<std::size_t>(1, util::utf8_sequence(rest, cp));
        if (kept + n > 100) break;
        kept += n;
        rest.remove_prefix(n);
    }
    return whole.substr(0, kept) + "… #" + util::hex64(util::fnv1a64(whole)).substr(0, 8);
}

}  // namespace cgbench::runner
