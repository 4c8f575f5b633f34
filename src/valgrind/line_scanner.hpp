#pragma once
// Zero-copy line iteration and count parsing shared by the Valgrind output parsers.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace cgbench::valgrind {

// Yields the lines of a buffer as views into it (without the '\n'), counting them.
class LineScanner {
  public:
    explicit LineScanner(std::string_view data) : data_(data) {}

    // Sets `line` to the next line; false at the end of the buffer.
    bool next(std::string_view& line) {
        if (pos_ >= data_.size()) return false;
        const char* start = data_.data() + pos_;
        const std::size_t left = data_.size() - pos_;
        const void* nl = std::memchr(start, '\n', left);
        const std::size_t len =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : left;
        line = std::string_view(start, len);
        line_start_ = pos_;
        pos_ += len + 1;
        ++number_;
        return true;
    }
    // 1-based number of the line last returned.
    std::size_t number() const { return number_; }
    // Offset in the buffer of the line last returned.
    std::size_t offset() const { return line_start_; }

  private:
    std::string_view data_;
    std::size_t pos_ = 0;
    std::size_t line_start_ = 0;
    std::size_t number_ = 0;
};

enum class NumberStatus { Ok, None, Overflow, Junk };

// Skips spaces/tabs, then reads one unsigned decimal number from `s` and advances it.
// None: only whitespace was left. Junk: a non-digit where a number should start or a number
// glued to other characters.
inline NumberStatus next_number(std::string_view& s, std::uint64_t& out) {
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        ++i;
    if (i == s.size()) {
        s.remove_prefix(i);
        return NumberStatus::None;
    }
    if (s[i] < '0' || s[i] > '9') return NumberStatus::Junk;
    std::uint64_t v = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        const auto digit = static_cast<std::uint64_t>(s[i] - '0');
        if (v > (UINT64_MAX - digit) / 10) return NumberStatus::Overflow;
        v = v * 10 + digit;
    }
    if (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return NumberStatus::Junk;
    s.remove_prefix(i);
    out = v;
    return NumberStatus::Ok;
}

// The value after "key:" with leading blanks removed, if `line` starts with `key`.
inline bool take_field(std::string_view line, std::string_view key, std::string_view& value) {
    if (line.substr(0, key.size()) != key) return false;
    value = line.substr(key.size());
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
        value.remove_prefix(1);
    }
    return true;
}

}  // namespace cgbench::valgrind
