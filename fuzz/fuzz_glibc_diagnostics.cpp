// libFuzzer target for the reader of `ld.so --list-diagnostics` (valgrind/cpu_baseline):
// it takes any text and must never crash or throw.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "valgrind/cpu_baseline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto selection = cgbench::valgrind::parse_diagnostics(text);
    if (selection.available && selection.glibc_version.empty()) __builtin_trap();
    return 0;
}
