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

std::string optional_number(const std::optional<std::uint64_t>& v) {
    return v ? util::with_commas(*v) : "-";
}

std::string share_of_delta(const std::optional<double>& share) {
    return share ? fmt::format("{:.1f}%", 100.0 * *share) : "-";
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
    FunctionTable t{fmt::format("Functions that moved in {}", escape(benchmark)),
                    {{"function", Align::Left},
                     {"file", Align::Left},
                     {"base", Align::Right},
                     {"head", Align::Right},
                     {"delta", Align::Right},
                     {"share", Align::Right}},
                    {}};
    for (const auto& c : changes) {
        t.rows.push_back({escape(c.name), escape(c.file), optional_number(c.base),
                          optional_number(c.head), signed_number(c.delta),
                          share_of_delta(c.share)});
    }
    return t;
}

FunctionTable process_changes_table(std::string_view benchmark,
                                    const std::vector<compare::ProcessChange>& changes,
                                    Escape escape) {
    FunctionTable t{fmt::format("Processes that moved in {}", escape(benchmark)),
                    {{"process", Align::Left},
                     {"base", Align::Right},
                     {"head", Align::Right},
                     {"delta", Align::Right},
                     {"share", Align::Right}},
                    {}};
    for (const auto& c : changes) {
        t.rows.push_back({escape(c.process), optional_number(c.base), optional_number(c.head),
                          signed_number(c.delta), share_of_delta(c.share)});
    }
    return t;
}

}  // namespace cgbench::report
