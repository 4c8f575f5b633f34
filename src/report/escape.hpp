#pragma once
// Escaping for the text formats, so that a benchmark named `<img src=x>|**x**` cannot break a
// table, inject HTML into a PR comment or corrupt XML.

#include <string>
#include <string_view>

namespace cgbench::report {

// Markdown table cell / inline text: backslash-escapes Markdown punctuation and the pipe,
// turns < > & into entities, control characters (C1 too) and newlines into spaces, bytes
// that are not UTF-8 and bidirectional formatting characters into U+FFFD, and puts an
// invisible U+2060 after what a forge would turn into a mention, a reference or a link
// (`@`, `#1`, `!1`, `scheme:` before `//`, `www` before `.`), so a name in a PR comment
// notifies nobody and links nowhere (docs/reference/reports.md).
std::string markdown_escape(std::string_view text);

// The longest name a Markdown table shows whole (bytes): a PR comment stays under the
// forge's size limit whatever the names.
inline constexpr std::size_t kMaxMarkdownName = 200;

// markdown_escape of `text` cut to at most `max_bytes` (whole characters) and "…" when longer.
std::string markdown_cell(std::string_view text, std::size_t max_bytes);
// markdown_cell(text, kMaxMarkdownName): a name in a Markdown table or line.
std::string markdown_name(std::string_view text);
// markdown_html_escape of a name cut as markdown_name cuts it.
std::string markdown_html_name(std::string_view text);

// A fenced Markdown code block showing `text` as it is: the fence is longer than any run of
// backticks in it, so the text cannot close the block; control characters but newline and
// tab become spaces and bytes that are not UTF-8 U+FFFD.
std::string markdown_code_block(std::string_view text);

// Text of the HTML lines of a Markdown document (a <details> summary, which Markdown leaves
// alone): markup_escape with newlines and tabs as spaces, so the line stays one line, and
// mentions, references and links defused as markdown_escape does.
std::string markdown_html_escape(std::string_view text);

// XML (JUnit, SVG) and HTML text or attribute value (quoted with "), valid in both:
// & < > " ' as entities; bytes that are not UTF-8, control characters, the characters XML
// forbids and bidirectional formatting characters become U+FFFD, so a name from the command
// line can neither break the document nor display as another.
std::string markup_escape(std::string_view text);

}  // namespace cgbench::report
