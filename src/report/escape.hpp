#pragma once
// Escaping for the text formats, so that a benchmark named `<img src=x>|**x**` cannot break a
// table, inject HTML into a PR comment or corrupt XML.

#include <string>
#include <string_view>

namespace cgbench::report {

// Markdown table cell / inline text: backslash-escapes Markdown punctuation and the pipe,
// turns < > & into entities, control characters (C1 too) and newlines into spaces, and bytes
// that are not UTF-8 into U+FFFD.
std::string markdown_escape(std::string_view text);

// A fenced Markdown code block showing `text` as it is: the fence is longer than any run of
// backticks in it, so the text cannot close the block; control characters but newline and
// tab become spaces and bytes that are not UTF-8 U+FFFD.
std::string markdown_code_block(std::string_view text);

// Text of the HTML lines of a Markdown document (a <details> summary, which Markdown leaves
// alone): markup_escape with newlines and tabs as spaces, so the line stays one line.
std::string markdown_html_escape(std::string_view text);

// XML (JUnit, SVG) and HTML text or attribute value (quoted with "), valid in both:
// & < > " ' as entities; bytes that are not UTF-8, control characters and the characters XML
// forbids become U+FFFD, so a name from the command line cannot break the document.
std::string markup_escape(std::string_view text);

}  // namespace cgbench::report
