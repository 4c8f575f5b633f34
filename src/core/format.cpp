#include "core/format.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench {

Format parse_format(std::string_view text) {
    if (text == "console") return Format::Console;
    if (text == "json") return Format::Json;
    if (text == "markdown") return Format::Markdown;
    if (text == "junit") return Format::Junit;
    throw UsageError(fmt::format("unknown format '{}'", util::printable(text)),
                     "use --format console, json, markdown or junit");
}

}  // namespace cgbench
