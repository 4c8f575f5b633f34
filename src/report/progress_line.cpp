#include "report/progress_line.hpp"

#include <fmt/format.h>

#include "report/run_summary.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// The first `width` columns of UTF-8 text, never splitting a character.
std::string cut(const std::string& text, std::size_t width) {
    if (display_width(text) <= width) return text;
    const std::string_view ellipsis = "...";
    const std::size_t keep = width > ellipsis.size() ? width - ellipsis.size() : 0;
    std::size_t columns = 0;
    std::size_t end = 0;
    for (; end < text.size(); ++end) {
        const bool starts_char = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
        if (starts_char && columns++ == keep) break;
    }
    return text.substr(0, end) + std::string(ellipsis.substr(0, width - keep));
}

}  // namespace

std::string live_progress_line(const ProgressState& state, std::size_t width) {
    std::vector<std::string> names;
    for (const auto& n : state.running)
        names.push_back(util::printable(n));
    std::string line =
        fmt::format("[{}/{}] {:.1f}s", state.done, state.total, state.elapsed_seconds);
    if (!names.empty()) line += "  running: " + util::join(names, ", ");
    return cut(line, width);
}

std::string progress_log_line(std::size_t done, std::size_t total, const BenchmarkResult& result) {
    std::string line =
        fmt::format("cgbench: [{}/{}] {} {} {:.2f}s", done, total, util::printable(result.name),
                    status_label(result), result.wall_seconds);
    if (result.status != BenchStatus::Ok) line += fmt::format(" ({})", result.error);
    return line;
}

}  // namespace cgbench::report
