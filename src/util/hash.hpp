#pragma once
// Non-cryptographic hashing for cache keys and fingerprint ids.

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace cgbench::util {

// 64-bit FNV-1a.
constexpr std::uint64_t fnv1a64(std::string_view data) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : data) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

// 16 lowercase hex digits.
inline std::string hex64(std::uint64_t v) {
    return fmt::format("{:016x}", v);
}

}  // namespace cgbench::util
