#pragma once
// SHA-256 (FIPS 180-4) and base64, for the Content-Security-Policy hash of the HTML report's
// inline script ('sha256-<base64 of the digest>').

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace cgbench::util {

// The 32-byte SHA-256 digest of `data`.
std::array<std::uint8_t, 32> sha256(std::string_view data);

// Standard base64 (RFC 4648, with padding) of `bytes`.
std::string base64(std::string_view bytes);

// "sha256-..." as a Content-Security-Policy source for an inline element whose text is `text`.
std::string csp_hash(std::string_view text);

}  // namespace cgbench::util
