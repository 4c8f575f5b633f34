#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "util/hash.hpp"

namespace cgbench::util {

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t pos = text.find(sep, start);
        if (pos == std::string_view::npos) {
            out.push_back(text.substr(start));
            return out;
        }
        out.push_back(text.substr(start, pos - start));
        start = pos + 1;
    }
}

std::string_view trim(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\f\v";
    const std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return {};
    const std::size_t last = text.find_last_not_of(kSpace);
    return text.substr(first, last - first + 1);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) out += sep;
        out += parts[i];
    }
    return out;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

bool version_at_least(std::string_view version, int major, int minor) {
    int got[2] = {0, 0};
    const auto parts = split(version, '.');
    for (std::size_t i = 0; i < 2 && i < parts.size(); ++i) {
        for (const char c : parts[i]) {
            if (c < '0' || c > '9' || got[i] > 100000) break;
            got[i] = got[i] * 10 + (c - '0');
        }
    }
    return got[0] > major || (got[0] == major && got[1] >= minor);
}

std::optional<double> parse_seconds(std::string_view text) {
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::string with_commas(std::uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string percent(double ratio) {
    const double pct = ratio * 100.0;
    if (std::fabs(pct) < 0.005) return "0.00%";
    return fmt::format("{:+.2f}%", pct);
}

std::string precise_percent(double ratio) {
    const double pct = ratio * 100.0;
    if (pct == 0) return "0%";
    int decimals = 2;
    while (decimals < 8 && std::fabs(pct) < 10 * std::pow(10.0, -decimals))
        ++decimals;
    return fmt::format("{:+.{}f}%", pct, decimals);
}

std::string without_password(std::string_view url) {
    std::string out(url);
    const auto start = out.find("://");
    if (start == std::string::npos) return out;
    const auto host = start + 3;
    const auto end = out.find_first_of("/?#", host);
    const auto at = out.rfind('@', end == std::string::npos ? std::string::npos : end);
    if (at != std::string::npos && at > host) {
        const auto colon = out.find(':', host);
        if (colon < at) out.erase(colon, at - colon);
    }
    // libpq also takes the password as a parameter of the query.
    const auto query = out.find('?');
    std::size_t p = query == std::string::npos ? std::string::npos : query + 1;
    while (p != std::string::npos && p < out.size()) {
        auto next = out.find('&', p);
        if (out.compare(p, 9, "password=") == 0) {
            // "?password=x&a" -> "?a", "?a&password=x" -> "?a", "?password=x" -> "".
            if (next != std::string::npos) {
                out.erase(p, next + 1 - p);
                continue;
            }
            out.erase(p - 1);
            break;
        }
        p = next == std::string::npos ? next : next + 1;
    }
    return out;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = utf8_sequence(text, cp);
        if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || bidi_control(cp)) {
            for (const char c : text.substr(0, n == 0 ? 1 : n))
                out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
            text.remove_prefix(n == 0 ? 1 : n);
        } else {
            out += text.substr(0, n);
            text.remove_prefix(n);
        }
    }
    return out;
}

bool bidi_control(char32_t cp) {
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

std::size_t utf8_sequence(std::string_view text, char32_t& cp) {
    const auto lead = static_cast<unsigned char>(text[0]);
    if (lead < 0x80) {
        cp = lead;
        return 1;
    }
    struct Form {
        unsigned char mask, value, payload;
        std::size_t length;
        char32_t least;
    };
    static constexpr Form kForms[] = {
        {0xE0, 0xC0, 0x1F, 2, 0x80}, {0xF0, 0xE0, 0x0F, 3, 0x800}, {0xF8, 0xF0, 0x07, 4, 0x10000}};
    const Form* form = nullptr;
    for (const auto& f : kForms) {
        if ((lead & f.mask) == f.value) form = &f;
    }
    if (form == nullptr) return 0;
    const std::size_t length = form->length;
    const char32_t least = form->least;
    cp = lead & form->payload;
    if (text.size() < length) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return length;
}

std::string file_safe(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
        out += ok ? c : '_';
    }
    if (out.empty() || out.front() == '.') out.insert(out.begin(), '_');
    // File names are at most 255 bytes and cgbench appends suffixes such as
    // ".callgrind.out.123": a long name keeps its start and a hash of the whole.
    if (out.size() > kMaxFileSafe) {
        out = out.substr(0, kMaxFileSafe - 17) + "-" + hex64(fnv1a64(text));
    }
    return out;
}

std::string shell_quote(std::string_view arg) {
    constexpr std::string_view kSafe =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%_-+=:,./";
    if (!arg.empty() && arg.find_first_not_of(kSafe) == std::string_view::npos) {
        return std::string(arg);
    }
    std::string out = "'";
    for (const char c : arg) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    out += '\'';
    return out;
}

std::string shell_join(const std::vector<std::string>& argv) {
    std::vector<std::string> quoted;
    quoted.reserve(argv.size());
    for (const auto& a : argv)
        quoted.push_back(shell_quote(a));
    return join(quoted, " ");
}

namespace {

// Levenshtein distance, one row at a time.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string_view>& candidates,
                    std::size_t max_distance) {
    std::string best;
    std::size_t best_distance = max_distance + 1;
    for (const auto c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (d < best_distance) {
            best = std::string(c);
            best_distance = d;
        }
    }
    return best;
}

}  // namespace cgbench::util
