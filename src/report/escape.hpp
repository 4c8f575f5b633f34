#pragma once
// Escaping for the text formats, so that a benchmark named `<img src=x>|**x**` cannot break a
// table, inject HTML into a PR comment or corrupt XML.

#include <string>
#include <string_view>

namespace cgbench::report {

// Markdown table cell / inline text: backslash-escapes Markdown punctuation and the pipe,
// turns < > & into entities, and control characters and newlines into spaces.
std::string markdown_escape(std::string_view text);

// XML attribute or text content: & < > " ' as entities; characters XML 1.0 forbids dropped.
std::string xml_escape(std::string_view text);

}  // namespace cgbench::report
