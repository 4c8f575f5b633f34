#pragma once
// Small string helpers with no domain knowledge.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::util {

// Splits on every occurrence of `sep`; empty fields are kept ("a,,b" -> {"a","","b"}).
std::vector<std::string_view> split(std::string_view text, char sep);

// Removes ASCII whitespace at both ends.
std::string_view trim(std::string_view text);

std::string join(const std::vector<std::string>& parts, std::string_view sep);

bool starts_with(std::string_view text, std::string_view prefix);

// Parses a whole string as an unsigned decimal number; nullopt on anything else, including
// overflow past 2^64-1, signs, spaces and empty input.
std::optional<std::uint64_t> parse_u64(std::string_view text);

// Whether a version "MAJOR.MINOR[.PATCH][suffix]" ("3.19.0", "2.41", "3.22.0.GIT") is at least
// major.minor; a part without leading digits counts as 0.
bool version_at_least(std::string_view version, int major, int minor);

// Parses a whole string as a non-negative decimal (e.g. "1.5", "10"); nullopt otherwise.
std::optional<double> parse_seconds(std::string_view text);

// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t value);

// Signed percentage with two decimals and sign: "+1.25%", "-0.10%", "0.00%".
std::string percent(double ratio);

// Signed percentage with at least two significant digits, for small moves that percent()
// would round away: "+13.56%", "+0.42%", "+0.0050%", "-0.00012%"; "0%" for 0.
std::string precise_percent(double ratio);

// Replaces control characters (C0, DEL and C1: a terminal may take U+009B for ESC [), the
// bidirectional formatting characters (bidi_control) and bytes that are not UTF-8 with \xNN,
// each byte, so a name can neither corrupt a terminal line nor display as another.
std::string printable(std::string_view text);

// `url` as messages show it: a URL's password ("scheme://user:PASSWORD@host",
// "?password=PASSWORD") removed; anything else unchanged. What names a history passes
// through this before it is printed, logged or written to a file.
std::string without_password(std::string_view url);

// The characters that reorder how text around them displays (U+061C, U+200E, U+200F,
// U+202A-U+202E, U+2066-U+2069): "a\u202Eexe.gnp" reads as "agnp.exe". Every output format
// shows them as something visible.
bool bidi_control(char32_t cp);

// U+FFFD, what text formats write for bytes that are not UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// The length of the well-formed UTF-8 sequence that starts `text` (not empty), with its code
// point in `cp`; 0 when it is not one (overlong, surrogate, beyond U+10FFFF, truncated).
std::size_t utf8_sequence(std::string_view text, char32_t& cp);

// Turns an arbitrary name into a file-name-safe token ("a/b c" -> "a_b_c") of at most
// kMaxFileSafe bytes: a longer one is cut and ends in a hash of the whole name, so distinct
// names stay distinct.
inline constexpr std::size_t kMaxFileSafe = 120;
std::string file_safe(std::string_view text);

// The candidate closest to `word` by edit distance (for "did you mean ...?"), or empty when
// none is within `max_distance` edits.
std::string closest(std::string_view word, const std::vector<std::string_view>& candidates,
                    std::size_t max_distance = 2);

// Quotes an argv element for display the way a POSIX shell would read it back. Display only:
// cgbench never runs a shell.
std::string shell_quote(std::string_view arg);
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace cgbench::util
