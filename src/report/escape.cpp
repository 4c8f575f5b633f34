#include "report/escape.hpp"

namespace cgbench::report {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence that starts `text` (not empty), with its code
// point in `cp`; 0 when it is not one (overlong, surrogate, beyond U+10FFFF, truncated).
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

// Characters both HTML and XML 1.0 take as text: no C0/C1 controls but tab and newlines, no
// U+FFFE/U+FFFF.
bool text_character(char32_t cp) {
    if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\r';
    if (cp >= 0x7F && cp <= 0x9F) return false;
    return cp != 0xFFFE && cp != 0xFFFF;
}

}  // namespace

std::string markdown_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
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
    return out;
}

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                if (u >= 0x20 || c == '\t' || c == '\n' || c == '\r') out += c;
        }
    }
    return out;
}

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    while (!text.empty()) {
        char32_t cp = 0;
        const std::size_t n = utf8_sequence(text, cp);
        if (n == 0 || !text_character(cp)) {
            out += kReplacement;
            text.remove_prefix(n == 0 ? 1 : n);
            continue;
        }
        switch (cp) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += text.substr(0, n);
        }
        text.remove_prefix(n);
    }
    return out;
}

}  // namespace cgbench::report
