#pragma once
// Escaping for the text formats, so that a benchmark named `<img src=x>|**x**` cannot break a
// table, inject HTML into a PR comment or corrupt XML.

#include <string>
#include <string_view>

namespace cgbench::report {

// Markdown table cell / inline text: backslash-escapes Markdown punctuation and the pipe,
// turns < > & into entities, and control characters and newlines into spaces.
std::string markdown_escape(std::string_view text);

// XML (JUnit, SVG) and HTML text or attribute value (quoted with "), valid in both:
// & < > " ' as entities; bytes that are not UTF-8, control characters and the characters XML
// forbids become U+FFFD, so a name from the command line cannot break the document.
std::string markup_escape(std::string_view text);

}  // namespace cgbench::report
