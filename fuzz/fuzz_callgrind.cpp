// libFuzzer target for the callgrind.out parser and the region attribution on top of it.
// The input is read as a run of dump parts (split before every line "part:"; an input
// without one is a single dump): each part either parses into a Profile whose function
// costs add up to no more than its totals, or raises ParseError; the parsed parts are then
// attributed to the regions their `desc: Trigger:` lines mark.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz/check_profile.hpp"
#include "fuzz/options_for.hpp"
#include "runner/regions.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace {

// Splits `text` before every line that starts with "part:".
std::vector<std::string_view> split_parts(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t at = text.find("\npart:"); at != std::string_view::npos;
         at = text.find("\npart:", at + 1)) {
        parts.push_back(text.substr(start, at + 1 - start));
        start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cgbench;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto options = fuzz::options_for(size);
    std::vector<valgrind::Profile> parts;
    try {
        for (const auto part : split_parts(text)) {
            parts.push_back(valgrind::parse_callgrind(part, options));
            fuzz::check_profile(parts.back());
        }
    } catch (const valgrind::ParseError&) {
        return 0;
    }
    try {
        const auto found = runner::attribute_regions(parts);
        for (const auto& region : found.regions)
            fuzz::check_profile(region.profile);
    } catch (const UsageError&) {  // parts with different events, or sums past 2^64
    }
    return 0;
}
