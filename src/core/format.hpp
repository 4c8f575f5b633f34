#pragma once
// The output formats a user can choose with --format for run, compare, merge, history, steps,
// bisect and annotate. Here, below both, because the options layer (config/) parses it and
// the reporters (report/) dispatch on it.

#include <string_view>

namespace cgbench {

enum class Format { Console, Json, Markdown, Junit };

// Parses "console", "json", "markdown" or "junit"; throws UsageError otherwise.
Format parse_format(std::string_view text);

}  // namespace cgbench
