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
    return cp != 0xFFFE && cp != 0xFFFF && !util::bidi_control(cp);
}

// U+2060 WORD JOINER: invisible, and breaks the patterns forges turn into mentions, links
// and references.
constexpr std::string_view kJoiner = "\u2060";

bool digit(char c) {
    return c >= '0' && c <= '9';
}

// Escaped Markdown text made inert on GitHub and GitLab, which find these patterns in the
// rendered text (Markdown escapes do not stop them): `@name` (a mention, which notifies),
// `#123` and `!123` (references that add an event to that issue or merge request), and URLs
// (`http://...`, any `scheme://`, `www.`), which would become links a name's author chose.
std::string defused(const std::string& escaped) {
    std::string out;
    out.reserve(escaped.size() + 8);
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        const char c = escaped[i];
        out += c;
        const std::string_view rest = std::string_view(escaped).substr(i + 1);
        const bool entity = c == '#' && i > 0 && escaped[i - 1] == '&';  // &#39;
        const bool reference =
            (c == '#' || c == '!') && !entity && !rest.empty() && digit(rest.front());
        const bool scheme = c == ':' && util::starts_with(rest, "//");
        const bool www =
            (c == 'w' || c == 'W') && i >= 2 && rest.size() >= 1 && rest.front() == '.' &&
            (escaped.compare(i - 2, 2, "ww") == 0 || escaped.compare(i - 2, 2, "WW") == 0);
        if (c == '@' || reference || scheme || www) out += kJoiner;
    }
    return out;
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
            out +=
                n == 0 || util::bidi_control(cp) ? util::kReplacementCharacter : text.substr(0, n);
        }
        text.remove_prefix(n == 0 ? 1 : n);
    }
    return defused(out);
}

namespace {

// The longest prefix of `text` of at most `max_bytes` that ends between characters.
std::string_view whole_characters(std::string_view text, std::size_t max_bytes) {
    std::size_t kept = 0;
    for (std::string_view rest = text; !rest.empty();) {
        char32_t cp = 0;
        const std::size_t n = std::max<std::size_t>(1, util::utf8_sequence(rest, cp));
        if (kept + n > max_bytes) break;
        kept += n;
        rest.remove_prefix(n);
    }
    return text.substr(0, kept);
}

}  // namespace

std::string markdown_cell(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return markdown_escape(text);
    return markdown_escape(whole_characters(text, max_bytes)) + "…";
}

std::string markdown_name(std::string_view text) {
    return markdown_cell(text, kMaxMarkdownName);
}

std::string markdown_html_name(std::string_view text) {
    if (text.size() <= kMaxMarkdownName) return markdown_html_escape(text);
    return markdown_html_escape(whole_characters(text, kMaxMarkdownName)) + "…";
}

std::string markdown_code_block(std::string_view text) {
    std::string body;
    std::size_t run = 0;
    std::size_t longest = 0;
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(text, cp);
        const bool control =
            n != 0 && cp != '\n' && cp != '\t' && (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f));
        if (n == 0 || util::bidi_control(cp)) {
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
    return defused(out);
}

}  // namespace cgbench::report
