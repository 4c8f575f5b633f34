#include "report/line_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string share_of(std::uint64_t part, std::uint64_t whole) {
    if (whole == 0) return "-";
    return fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string signed_delta(std::int64_t v, bool at_least) {
    const std::uint64_t magnitude =
        v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
    return std::string(at_least ? "≥" : "") +
           (v > 0   ? "+"
            : v < 0 ? "-"
                    : "") +
           util::with_commas(magnitude);
}

}  // namespace

bool names_file(std::string_view path, std::string_view file) {
    if (file.empty() || path == file) return true;
    return path.size() > file.size() && path.ends_with(file) &&
           path[path.size() - file.size() - 1] == '/';
}

std::vector<FunctionTable> lines_tables(const BenchmarkResult& b, std::string_view file,
                                        Escape escape) {
    std::map<std::string, std::vector<const LineResult*>> files;
    std::map<std::string, std::uint64_t> totals;
    for (const auto& l : b.lines) {
        if (!names_file(l.file, file)) continue;
        files[l.file].push_back(&l);
        totals[l.file] += l.cost;
    }
    std::vector<std::string> order;
    for (const auto& [name, lines] : files)
        order.push_back(name);
    std::stable_sort(order.begin(), order.end(), [&](const std::string& x, const std::string& y) {
        return totals[x] > totals[y];
    });
    std::vector<FunctionTable> out;
    for (const auto& name : order) {
        auto& lines = files[name];
        std::sort(lines.begin(), lines.end(),
                  [](const LineResult* x, const LineResult* y) { return x->line < y->line; });
        FunctionTable t{fmt::format("{} · {} of {}'s costliest lines · {} ({})", escape(name),
                                    lines.size(), escape(b.name), util::with_commas(totals[name]),
                                    share_of(totals[name], b.cost)),
                        {{"line", Align::Right},
                         {"cost", Align::Right},
                         {"share", Align::Right},
                         {"Ir", Align::Right},
                         {"function", Align::Left},
                         {"source", Align::Left}},
                        {}};
        for (const LineResult* l : lines) {
            t.rows.push_back({std::to_string(l->line), util::with_commas(l->cost),
                              share_of(l->cost, b.cost),
                              l->events.has(metrics::Event::Ir)
                                  ? util::with_commas(l->events.get(metrics::Event::Ir))
                                  : "-",
                              escape(l->function), escape(l->text)});
        }
        out.push_back(std::move(t));
    }
    return out;
}

FunctionTable line_changes_table(std::string_view benchmark,
                                 const std::vector<compare::LineChange>& changes, Escape escape) {
    FunctionTable t{fmt::format("Lines that moved in {}", escape(benchmark)),
                    {{"line", Align::Left},
                     {"was", Align::Right},
                     {"function", Align::Left},
                     {"base", Align::Right},
                     {"head", Align::Right},
                     {"delta", Align::Right},
                     {"source", Align::Left}},
                    {}};
    const auto number = [](const std::optional<std::uint64_t>& v) {
        return v ? util::with_commas(*v) : "-";
    };
    for (const auto& c : changes) {
        const auto line = c.head_line.value_or(c.base_line.value_or(0));
        const bool moved = c.base_line && c.head_line && *c.base_line != *c.head_line;
        t.rows.push_back({escape(fmt::format("{}:{}", c.file, line)),
                          moved ? std::to_string(*c.base_line) : (c.base_line ? "" : "-"),
                          escape(c.function), number(c.base), number(c.head),
                          signed_delta(c.delta, c.at_least), escape(c.text)});
    }
    return t;
}

}  // namespace cgbench::report
