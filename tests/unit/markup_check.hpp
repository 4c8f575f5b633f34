#pragma once
// A strict checker for the markup cgbench writes (the HTML report and its inline SVG): every
// tag and attribute must be one cgbench writes, tags must nest and close, attribute values
// must be quoted, and text may hold no raw < > and only well-formed entities. An injected
// element (<img>, an <svg onload>) or a broken attribute fails it; the raw text of <style>
// and <script> must not hold "</" (an injected end tag).

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::testing_markup {

inline const std::set<std::string, std::less<>> kTags = {
    "html",    "head",    "meta", "title", "style",  "body",      "h1",     "h2",   "p",
    "code",    "table",   "tr",   "th",    "td",     "a",         "span",   "b",    "section",
    "details", "summary", "svg",  "line",  "text",   "polyline",  "circle", "path", "div",
    "br",      "script",  "rect", "g",     "figure", "figcaption"};
inline const std::set<std::string, std::less<>> kVoid = {"meta", "br"};  // HTML void elements
inline const std::set<std::string, std::less<>> kAttributes = {
    "lang", "charset", "name",        "content",  "http-equiv",  "class",     "id",
    "href", "xmlns",   "viewBox",     "width",    "height",      "role",      "aria-label",
    "x",    "y",       "x1",          "y1",       "x2",          "y2",        "points",
    "cx",   "cy",      "r",           "d",        "text-anchor", "transform", "data-name",
    "type", "fill",    "font-family", "font-size"};

class MarkupChecker {
  public:
    // Empty when `doc` is well-formed; otherwise what is wrong and where. `html`: a whole
    // document (doctype, void elements, raw-text <style>); otherwise an XML fragment.
    std::string check(std::string_view doc, bool html) {
        doc_ = doc;
        html_ = html;
        i_ = 0;
        stack_.clear();
        if (html_ && doc_.starts_with("<!DOCTYPE html>")) i_ = 15;
        while (i_ < doc_.size() && error_.empty())
            step();
        if (error_.empty() && !stack_.empty()) error_ = "unclosed <" + stack_.back() + ">";
        return error_;
    }

  private:
    void fail(const std::string& what) {
        if (error_.empty()) {
            error_ = what + " at " + std::to_string(i_) + ": " +
                     std::string(doc_.substr(i_ > 40 ? i_ - 40 : 0, 80));
        }
    }

    void step() {
        const char c = doc_[i_];
        if (c == '<') {
            if (doc_.substr(i_, 2) == "</") {
                close_tag();
            } else {
                open_tag();
            }
        } else if (c == '&') {
            entity();
        } else if (c == '>') {
            fail("raw >");
        } else {
            ++i_;
        }
    }

    std::string name() {
        const std::size_t start = i_;
        while (i_ < doc_.size() && (std::isalnum(static_cast<unsigned char>(doc_[i_])) ||
                                    doc_[i_] == '-' || doc_[i_] == ':')) {
            ++i_;
        }
        return std::string(doc_.substr(start, i_ - start));
    }

    void entity() {
        const std::size_t end = doc_.find(';', i_);
        const std::string_view e =
            end == std::string_view::npos ? doc_.substr(i_) : doc_.substr(i_, end - i_ + 1);
        static const std::set<std::string_view> known = {"&amp;",  "&lt;",  "&gt;",
                                                         "&quot;", "&#39;", "&apos;"};
        if (known.count(e) == 0) return fail("bad entity");
        i_ += e.size();
    }

    void close_tag() {
        i_ += 2;
        const std::string n = name();
        if (i_ >= doc_.size() || doc_[i_] != '>') return fail("bad closing tag");
        ++i_;
        if (stack_.empty() || stack_.back() != n) return fail("mismatched </" + n + ">");
        stack_.pop_back();
    }

    void attribute_value() {
        if (doc_.substr(i_, 2) != "=\"") return fail("unquoted attribute");
        i_ += 2;
        while (i_ < doc_.size() && doc_[i_] != '"' && error_.empty()) {
            if (doc_[i_] == '<' || doc_[i_] == '>') return fail("raw < or > in an attribute");
            if (doc_[i_] == '&') {
                entity();
            } else {
                ++i_;
            }
        }
        if (i_ >= doc_.size()) return fail("unterminated attribute");
        ++i_;
    }

    void open_tag() {
        ++i_;
        const std::string n = name();
        if (kTags.count(n) == 0) return fail("unexpected element <" + n + ">");
        while (error_.empty()) {
            while (i_ < doc_.size() && doc_[i_] == ' ')
                ++i_;
            if (i_ >= doc_.size()) return fail("unterminated tag");
            if (doc_.substr(i_, 2) == "/>") {
                i_ += 2;
                return;
            }
            if (doc_[i_] == '>') break;
            const std::string a = name();
            if (kAttributes.count(a) == 0) return fail("unexpected attribute " + a);
            attribute_value();
        }
        ++i_;
        if (html_ && kVoid.count(n) != 0) return;
        stack_.push_back(n);
        if (html_ && (n == "style" || n == "script")) {  // raw text, up to its end tag
            const std::string close = "</" + n + ">";
            const std::size_t end = doc_.find(close, i_);
            if (end == std::string_view::npos) return fail("unterminated <" + n + ">");
            if (doc_.substr(i_, end - i_).find("</") != std::string_view::npos) {
                return fail("</ inside <" + n + ">");
            }
            if (n == "style" && doc_.substr(i_, end - i_).find('<') != std::string_view::npos) {
                return fail("< inside <style>");
            }
            i_ = end;
        }
    }

    std::string_view doc_;
    bool html_ = false;
    std::size_t i_ = 0;
    std::vector<std::string> stack_;
    std::string error_;
};

// Empty when well-formed (see MarkupChecker::check).
inline std::string check_html(std::string_view doc) {
    return MarkupChecker().check(doc, true);
}
inline std::string check_xml(std::string_view fragment) {
    return MarkupChecker().check(fragment, false);
}

// Every "<svg ...>...</svg>" in `doc`.
inline std::vector<std::string_view> svg_fragments(std::string_view doc) {
    std::vector<std::string_view> out;
    for (std::size_t at = doc.find("<svg "); at != std::string_view::npos;
         at = doc.find("<svg ", at + 1)) {
        const std::size_t end = doc.find("</svg>", at);
        if (end == std::string_view::npos) break;
        out.push_back(doc.substr(at, end + 6 - at));
    }
    return out;
}

}  // namespace cgbench::testing_markup
