#include "util/json_cursor.hpp"

#include <array>
#include <charconv>

namespace cgbench::util {

namespace {

// The bytes a string holds as they are: all but '"', '\\' and control characters.
constexpr auto kPlainInString = [] {
    std::array<bool, 256> plain{};
    for (std::size_t c = 0x20; c < plain.size(); ++c)
        plain[c] = c != '"' && c != '\\';
    return plain;
}();

}  // namespace

void JsonCursor::skip_whitespace() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
        ++i_;
    }
}

bool JsonCursor::eat(char c) {
    skip_whitespace();
    if (i_ >= s_.size() || s_[i_] != c) return false;
    ++i_;
    return true;
}

char JsonCursor::peek() {
    skip_whitespace();
    return i_ < s_.size() ? s_[i_] : '\0';
}

bool JsonCursor::at_end() {
    skip_whitespace();
    return i_ == s_.size();
}

bool JsonCursor::literal(std::string_view word) {
    skip_whitespace();
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
}

bool JsonCursor::skip(std::string_view& raw) {
    skip_whitespace();
    const std::size_t start = i_;
    std::size_t depth = 0;
    do {
        if (i_ >= s_.size()) return false;
        const char c = s_[i_];
        if (c == '"') {
            for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_)
                i_ += s_[i_] == '\\' ? 1 : 0;
            if (i_++ >= s_.size()) return false;
        } else if (c == '{' || c == '[') {
            ++depth;
            ++i_;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return false;
            --depth;
            ++i_;
        } else if (depth == 0) {  // a number or a literal: up to the next delimiter
            while (i_ < s_.size() &&
                   std::string_view(",}] \n\t\r").find(s_[i_]) == std::string_view::npos)
                ++i_;
        } else {
            ++i_;
        }
    } while (depth > 0);
    raw = s_.substr(start, i_ - start);
    return !raw.empty();
}

bool JsonCursor::string(std::string& out) {
    if (!eat('"')) return false;
    out.clear();
    for (;;) {
        // A run of plain characters, scanned through a local pointer (a stored document's
        // strings are most of its bytes).
        const std::size_t start = i_;
        const char* p = s_.data() + i_;
        const char* const end = s_.data() + s_.size();
        while (p != end && kPlainInString[static_cast<unsigned char>(*p)])
            ++p;
        i_ = static_cast<std::size_t>(p - s_.data());
        out.append(s_.substr(start, i_ - start));
        if (i_ >= s_.size() || static_cast<unsigned char>(s_[i_]) < 0x20) return false;
        if (s_[i_++] == '"') return true;
        if (!escape(out)) return false;
    }
}

bool JsonCursor::key(std::string_view& out) {
    if (!eat('"')) return false;
    const char* const first = s_.data() + i_;
    const char* const end = s_.data() + s_.size();
    const char* p = first;
    while (p != end && kPlainInString[static_cast<unsigned char>(*p)])
        ++p;
    if (p == end || *p != '"') return false;
    out = std::string_view(first, static_cast<std::size_t>(p - first));
    i_ = static_cast<std::size_t>(p - s_.data()) + 1;
    return true;
}

bool JsonCursor::escape(std::string& out) {
    if (i_ >= s_.size()) return false;
    constexpr std::string_view kFrom = "\"\\/bfnrt";
    constexpr std::string_view kTo = "\"\\/\b\f\n\r\t";
    const char c = s_[i_++];
    if (const auto at = kFrom.find(c); at != std::string_view::npos) {
        out += kTo[at];
        return true;
    }
    return c == 'u' && unicode_escape(out);
}

// \uXXXX outside the surrogate range, as UTF-8.
bool JsonCursor::unicode_escape(std::string& out) {
    unsigned cp = 0;
    if (i_ + 4 > s_.size()) return false;
    const auto [p, ec] = std::from_chars(s_.data() + i_, s_.data() + i_ + 4, cp, 16);
    if (ec != std::errc{} || p != s_.data() + i_ + 4 || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return false;
    }
    i_ += 4;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
}

bool JsonCursor::number(JsonNumber& out) {
    skip_whitespace();
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    bool real = false;
    for (; i_ < s_.size(); ++i_) {
        const char c = s_[i_];
        if (c == '.' || c == 'e' || c == 'E' || c == '+' || (c == '-' && i_ > start)) {
            real = true;
        } else if (c < '0' || c > '9') {
            break;
        }
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + i_;
    const char* digits = first + (*first == '-' ? 1 : 0);
    // JSON forbids leading zeros ("01").
    if (digits == last ||
        (*digits == '0' && last - digits > 1 && digits[1] >= '0' && digits[1] <= '9')) {
        return false;
    }
    std::from_chars_result r{};
    if (real) {
        r = std::from_chars(first, last, out.real.emplace());
    } else if (*first == '-') {
        r = std::from_chars(first, last, out.negative.emplace());
    } else {
        r = std::from_chars(first, last, out.whole.emplace());
    }
    return r.ec == std::errc{} && r.ptr == last;
}

}  // namespace cgbench::util
