#include "report/function_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/escape.hpp"
#include "report/run_summary.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

// A table in the text formats: titles, alignment, and rows of raw (unescaped) cells whose
// name columns are escaped per format.
struct Table {
    std::vector<std::pair<std::string, Align>> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> name_columns;  // function and file
};

std::string render_text(const Table& t, Format format, std::string_view heading) {
    const auto escaped = [&](std::vector<std::string> cells) {
        for (const auto c : t.name_columns) {
            cells[c] =
                format == Format::Markdown ? markdown_escape(cells[c]) : util::printable(cells[c]);
        }
        return cells;
    };
    if (format == Format::Markdown) {
        std::string out = fmt::format("#### {}\n\n|", heading);
        std::string rule = "|";
        for (const auto& [title, align] : t.columns) {
            out += " " + title + " |";
            rule += align == Align::Right ? "--:|" : ":--|";
        }
        out += "\n" + rule + "\n";
        for (const auto& row : t.rows)
            out += "| " + util::join(escaped(row), " | ") + " |\n";
        return out;
    }
    TextTable table(t.columns);
    for (const auto& row : t.rows)
        table.add_row(escaped(row));
    return fmt::format("{}\n\n{}", heading, table.render(2));
}

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

}  // namespace

std::string render_functions(const BenchmarkResult& b, Format format, std::size_t top) {
    const std::size_t n = std::min(top, b.functions.size());
    if (format == Format::Json || format == Format::Junit) {
        ojson functions = ojson::array();
        for (std::size_t i = 0; i < n; ++i)
            functions.push_back(to_json(b.functions[i]));
        const ojson doc{{"schema", "cgbench-annotate/1"},
                        {"benchmark", b.name},
                        {"tool", b.tool},
                        {"cost", b.cost},
                        {"functions", std::move(functions)}};
        return dump_json(doc) + "\n";
    }
    Table t{{{"cost", Align::Right},
             {"share", Align::Right},
             {"Ir", Align::Right},
             {"function", Align::Left},
             {"file", Align::Left}},
            {},
            {3, 4}};
    for (std::size_t i = 0; i < n; ++i) {
        const auto& f = b.functions[i];
        t.rows.push_back({util::with_commas(f.cost), share_of(f.cost, b.cost),
                          f.events.has(metrics::Event::Ir)
                              ? util::with_commas(f.events.get(metrics::Event::Ir))
                              : "-",
                          f.name, f.file});
    }
    const std::string name =
        format == Format::Markdown ? markdown_escape(b.name) : util::printable(b.name);
    return render_text(t, format,
                       fmt::format("{} · {} · cost {} = {}", name, b.tool,
                                   util::with_commas(b.cost), cost_formula(b.weights))) +
           "\n";
}

ojson function_changes_json(const std::vector<compare::FunctionChange>& changes) {
    ojson out = ojson::array();
    for (const auto& c : changes) {
        out.push_back(ojson{{"file", c.file},
                            {"name", c.name},
                            {"base", c.base ? ojson(*c.base) : ojson(nullptr)},
                            {"head", c.head ? ojson(*c.head) : ojson(nullptr)},
                            {"delta", c.delta},
                            {"share", c.share ? ojson(*c.share) : ojson(nullptr)}});
    }
    return out;
}

std::string render_function_changes(std::string_view benchmark,
                                    const std::vector<compare::FunctionChange>& changes,
                                    Format format) {
    if (format == Format::Json || format == Format::Junit) {
        return dump_json(function_changes_json(changes)) + "\n";
    }
    Table t{{{"function", Align::Left},
             {"file", Align::Left},
             {"base", Align::Right},
             {"head", Align::Right},
             {"delta", Align::Right},
             {"share", Align::Right}},
            {},
            {0, 1}};
    for (const auto& c : changes) {
        t.rows.push_back({c.name, c.file, optional_number(c.base), optional_number(c.head),
                          signed_number(c.delta),
                          c.share ? fmt::format("{:.1f}%", 100.0 * *c.share) : "-"});
    }
    const std::string name =
        format == Format::Markdown ? markdown_escape(benchmark) : util::printable(benchmark);
    return render_text(t, format, fmt::format("Functions that moved in {}", name)) + "\n";
}

ojson process_changes_json(const std::vector<compare::ProcessChange>& changes) {
    ojson out = ojson::array();
    for (const auto& c : changes) {
        out.push_back(ojson{{"process", c.process},
                            {"base", c.base ? ojson(*c.base) : ojson(nullptr)},
                            {"head", c.head ? ojson(*c.head) : ojson(nullptr)},
                            {"delta", c.delta},
                            {"share", c.share ? ojson(*c.share) : ojson(nullptr)}});
    }
    return out;
}

std::string render_process_changes(std::string_view benchmark,
                                   const std::vector<compare::ProcessChange>& changes,
                                   Format format) {
    if (format == Format::Json || format == Format::Junit) {
        return dump_json(process_changes_json(changes)) + "\n";
    }
    Table t{{{"process", Align::Left},
             {"base", Align::Right},
             {"head", Align::Right},
             {"delta", Align::Right},
             {"share", Align::Right}},
            {},
            {0}};
    for (const auto& c : changes) {
        t.rows.push_back({c.process, optional_number(c.base), optional_number(c.head),
                          signed_number(c.delta),
                          c.share ? fmt::format("{:.1f}%", 100.0 * *c.share) : "-"});
    }
    const std::string name =
        format == Format::Markdown ? markdown_escape(benchmark) : util::printable(benchmark);
    return render_text(t, format, fmt::format("Processes that moved in {}", name)) + "\n";
}

}  // namespace cgbench::report
