// GitHub workflow commands for the lines of a pull request whose cost grew: GitHub shows each
// `::warning` on its line in the pull request's diff. Escaped as the runner unescapes them
// (actions/toolkit's command.ts: data %, CR, LF; properties also : and ,).

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/line_annotations.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string escaped(std::string_view text, bool property) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '%':
                out += "%25";
                break;
            case '\r':
                out += "%0D";
                break;
            case '\n':
                out += "%0A";
                break;
            case ':':
                out += property ? "%3A" : ":";
                break;
            case ',':
                out += property ? "%2C" : ",";
                break;
            default:
                out += c;
        }
    }
    return out;
}

}  // namespace

std::string annotation_message(const LineAnnotation& a) {
    const double share =
        a.base_cost == 0 ? 0.0
                         : 100.0 * static_cast<double>(a.delta) / static_cast<double>(a.base_cost);
    return fmt::format(
        "{}+{} cost (+{:.1f}% of {})", a.at_least ? "≥" : "",
        util::with_commas(static_cast<std::uint64_t>(std::max<std::int64_t>(a.delta, 0))), share,
        a.benchmark);
}

std::string workflow_data(std::string_view text) {
    return escaped(text, false);
}

std::string workflow_property(std::string_view text) {
    return escaped(text, true);
}

std::string github_annotations(const std::vector<LineAnnotation>& annotations) {
    // Files in order of their largest growth; a file's lines in order of number.
    std::map<std::string, std::int64_t> largest;
    for (const auto& a : annotations)
        largest[a.path] = std::max(largest[a.path], a.delta);
    std::vector<const LineAnnotation*> order;
    for (const auto& a : annotations)
        order.push_back(&a);
    std::stable_sort(order.begin(), order.end(), [&](const auto* x, const auto* y) {
        if (x->path != y->path) {
            return largest[x->path] != largest[y->path] ? largest[x->path] > largest[y->path]
                                                        : x->path < y->path;
        }
        return x->line < y->line;
    });
    std::string out;
    for (const auto* a : order) {
        // Names pass through printable first: a workflow command is one line of the log.
        out += fmt::format("::warning file={},line={},title={}::{}\n", workflow_property(a->path),
                           a->line,
                           workflow_property(fmt::format("cgbench: cost grew in {}",
                                                         util::printable(a->function))),
                           workflow_data(util::printable(annotation_message(*a))));
    }
    return out;
}

}  // namespace cgbench::report
