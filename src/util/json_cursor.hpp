#pragma once
// A strict, allocation-light reader of JSON text for callers that know the shape of the
// document they read (core/result_reader.cpp). It decodes what nlohmann::json writes and
// declines the rest, so such a caller can fall back to a full parser.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::util {

// A JSON number as written: exactly one member is set.
struct JsonNumber {
    std::optional<std::uint64_t> whole;    // digits only
    std::optional<std::int64_t> negative;  // a minus sign and digits
    std::optional<double> real;            // with a fraction or an exponent
};

// Every member returns false where the text is not what was asked for, or uses something
// this reader does not decode (a \u escape of a surrogate, a leading zero, an integer beyond
// 64 bits); the position is then unspecified and the caller should give up.
class JsonCursor {
  public:
    explicit JsonCursor(std::string_view text) : s_(text) {}

    // Consumes `c` after optional whitespace.
    bool eat(char c);
    // The next character after whitespace, '\0' at the end; consumes nothing else.
    char peek();
    // True when only whitespace remains.
    bool at_end();
    // A string into `out`, escapes decoded.
    bool string(std::string& out);
    // A string without escapes (an object's key as writers write them) as a view into the
    // text, valid while it is; false for one with escapes too.
    bool key(std::string_view& out);
    // A number into `out`.
    bool number(JsonNumber& out);
    // The literal `word` (true, false or null).
    bool literal(std::string_view word);
    // Skips the next value (string, number, literal, or a whole object or array) into `raw`,
    // its text as written. Checks only that strings end and brackets pair up: the caller
    // reads `raw` with a real reader.
    bool skip(std::string_view& raw);

  private:
    void skip_whitespace();
    bool escape(std::string& out);
    bool unicode_escape(std::string& out);

    std::string_view s_;
    std::size_t i_ = 0;
};

}  // namespace cgbench::util
