#include "report/escape.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// Characters both HTML and XML 1.0 take as text: no C0/C1 controls but tab and newlines, no
// U+FFFE/U+FFFF.
bool text_character(char32_t cp) {
    if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\r';
    if (cp >= 0x7F && cp <= 0x9F) return false;
    return cp != 0xFFFE && cp != 0xFFFF;
}

// The entity for a character that markup must escape ("" for any other): valid in HTML and
// XML text and in attribute values quoted with " or '.
std::string_view entity(char32_t c) {
    switch (c) {
        case '&':
            return "&amp;";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '"':
            return "&quot;";
        case '\'':
            return "&#39;";
        default:
            return {};
    }
}

// One ASCII character of Markdown text: punctuation backslash-escaped, < > & as entities,
// control characters as spaces.
void append_markdown_ascii(std::string& out, char c) {
    switch (c) {
        case '<':
        case '>':
        case '&':
            out += entity(static_cast<char32_t>(c));
            break;
        case '|':
        case '\\':
        case '*':
        case '_':
        case '`':
        case '[':
        case ']':
        case '#':
        case '~':
        case '!':
        case '(':
        case ')':
            out += '\\';
            out += c;
            break;
        default:
            out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    }
}

}  // namespace

std::string markdown_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(text, cp);
        if (n == 1) {
            append_markdown_ascii(out, text.front());
        } else if (n == 2 && cp <= 0x9f) {
            out += ' ';  // a C1 control
        } else {
            out += n == 0 ? util::kReplacementCharacter : text.substr(0, n);
        }
        text.remove_prefix(n == 0 ? 1 : n);
    }
    return out;
}

std::string markdown_code_block(std::string_view text) {
    std::string body;
    std::size_t run = 0;
    std::size_t longest = 0;
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(text, cp);
        const bool control = n != 0 && cp != '\n' && cp != '\t' &&
                             (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f));
        if (n == 0) {
            body += util::kReplacementCharacter;
        } else {
            body += control ? std::string_view(" ") : text.substr(0, n);
        }
        run = n == 1 && cp == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        text.remove_prefix(n == 0 ? 1 : n);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    return fence + "\n" + body + "\n" + fence;
}

std::string markup_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(text, cp);
        if (n == 0 || !text_character(cp)) {
            out += util::kReplacementCharacter;
            text.remove_prefix(n == 0 ? 1 : n);
            continue;
        }
        const std::string_view e = entity(cp);
        out += e.empty() ? text.substr(0, n) : e;
        text.remove_prefix(n);
    }
    return out;
}

std::string markdown_html_escape(std::string_view text) {
    std::string out = markup_escape(text);
    for (auto& c : out) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    return out;
}

}  // namespace cgbench::report
