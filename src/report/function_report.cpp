#include "report/function_report.hpp"

#include <fmt/format.h>

#include "report/run_summary.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

std::string share_of(std::uint64_t part, std::uint64_t whole) {
    if (whole == 0) return "-";
    return fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string signed_number(std::int64_t v) {
    const std::string digits = util::with_commas(v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1
                                                       : static_cast<std::uint64_t>(v));
    return (v > 0 ? "+" : v < 0 ? "-" : "") + digits;
}

// A table of what moved, under `heading`: the columns naming the thing (`names`), then base,
// head, delta and share of the total delta; a row per change, its names from `name_cells`.
template <class Change, class NameCells>
FunctionTable changes_table(std::string heading, std::vector<std::string> names,
                            const std::vector<Change>& changes, NameCells name_cells) {
    FunctionTable t{std::move(heading), {}, {}};
    for (auto& n : names)
        t.columns.emplace_back(std::move(n), Align::Left);
    for (const char* title : {"base", "head", "delta", "share"})
        t.columns.emplace_back(title, Align::Right);
    const auto number = [](const std::optional<std::uint64_t>& v) {
        return v ? util::with_commas(*v) : "-";
    };
    for (const auto& c : changes) {
        auto row = name_cells(c);
        for (auto cell : {number(c.base), number(c.head), signed_number(c.delta),
                          c.share ? fmt::format("{:.1f}%", 100.0 * *c.share) : "-"})
            row.push_back(std::move(cell));
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace

FunctionTable top_functions_table(const BenchmarkResult& b, std::size_t top, Escape escape) {
    FunctionTable t{fmt::format("{} · {} · cost {} = {}", escape(b.name), b.tool,
                                util::with_commas(b.cost), cost_formula(b.weights)),
                    {{"cost", Align::Right},
                     {"share", Align::Right},
                     {"Ir", Align::Right},
                     {"function", Align::Left},
                     {"file", Align::Left}},
                    {}};
    for (std::size_t i = 0; i < std::min(top, b.functions.size()); ++i) {
        const auto& f = b.functions[i];
        t.rows.push_back({util::with_commas(f.cost), share_of(f.cost, b.cost),
                          f.events.has(metrics::Event::Ir)
                              ? util::with_commas(f.events.get(metrics::Event::Ir))
                              : "-",
                          escape(f.name), escape(f.file)});
    }
    return t;
}

FunctionTable function_changes_table(std::string_view benchmark,
                                     const std::vector<compare::FunctionChange>& changes,
                                     Escape escape) {
    return changes_table(fmt::format("Functions that moved in {}", escape(benchmark)),
                         {"function", "file"}, changes, [&](const compare::FunctionChange& c) {
                             return std::vector<std::string>{escape(c.name), escape(c.file)};
                         });
}

FunctionTable process_changes_table(std::string_view benchmark,
                                    const std::vector<compare::ProcessChange>& changes,
                                    Escape escape) {
    return changes_table(fmt::format("Processes that moved in {}", escape(benchmark)), {"process"},
                         changes, [&](const compare::ProcessChange& c) {
                             return std::vector<std::string>{escape(c.process)};
                         });
}

}  // namespace cgbench::report
