// libFuzzer target for the cachegrind.out parser: any input either parses into a Profile
// whose function costs add up to no more than its totals, or raises ParseError; nothing
// else may happen (no crash, no other exception, no sanitizer report).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/check_profile.hpp"
#include "fuzz/options_for.hpp"
#include "valgrind/cachegrind_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        cgbench::fuzz::check_profile(
            cgbench::valgrind::parse_cachegrind(text, cgbench::fuzz::options_for(size)));
    } catch (const cgbench::valgrind::ParseError&) {
    }
    return 0;
}
