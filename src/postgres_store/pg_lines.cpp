#include "postgres_store/pg_lines.hpp"

#include "core/result_json.hpp"
#include "history/backend.hpp"
#include "metrics/events.hpp"

namespace cgbench::postgres_store {

namespace {

// The lines' columns, one array each; a statement takes them whatever their number.
struct LineColumns {
    std::vector<Param> positions, ranks, files, functions, lines, texts, costs, irs;
    void add(std::size_t position, std::size_t rank, const LineResult& l) {
        positions.emplace_back(std::to_string(position));
        ranks.emplace_back(std::to_string(rank));
        // As documents store names: U+FFFD for bytes that are not UTF-8.
        files.emplace_back(as_json_text(l.file));
        functions.emplace_back(as_json_text(l.function));
        lines.emplace_back(std::to_string(l.line));
        texts.push_back(l.text.empty() ? Param() : Param(as_json_text(l.text)));
        costs.emplace_back(std::to_string(l.cost));
        const bool ir = l.events.has(metrics::Event::Ir);
        irs.push_back(ir ? Param(std::to_string(l.events.get(metrics::Event::Ir))) : Param());
    }
};

constexpr std::string_view kInsertSymbols = R"sql(
INSERT INTO cgbench.symbols (file, name)
SELECT DISTINCT f, n FROM unnest($1::text[], $2::text[]) AS u (f, n) ON CONFLICT DO NOTHING)sql";

constexpr std::string_view kInsertTexts = R"sql(
INSERT INTO cgbench.line_texts (text)
SELECT DISTINCT t FROM unnest($1::text[]) AS u (t) WHERE t IS NOT NULL ON CONFLICT DO NOTHING)sql";

constexpr std::string_view kInsertLines = R"sql(
INSERT INTO cgbench.result_lines (run, position, rank, symbol, line, text, cost, ir)
SELECT $1, u.position, u.rank, s.id, u.line, t.id, u.cost, u.ir
FROM unnest($2::integer[], $3::integer[], $4::text[], $5::text[], $6::bigint[], $7::text[],
            $8::bigint[], $9::bigint[]) AS u (position, rank, file, function, line, text, cost, ir)
JOIN cgbench.symbols s ON md5(s.file) = md5(u.file) AND md5(s.name) = md5(u.function)
                       AND s.file = u.file AND s.name = u.function
LEFT JOIN cgbench.line_texts t ON md5(t.text) = md5(u.text) AND t.text = u.text)sql";

constexpr std::string_view kSelectLines = R"sql(
SELECT l.position, s.file, s.name, l.line, t.text, l.cost, l.ir
FROM cgbench.result_lines l JOIN cgbench.symbols s ON s.id = l.symbol
LEFT JOIN cgbench.line_texts t ON t.id = l.text
WHERE l.run = $1 ORDER BY l.position, l.rank)sql";

LineResult read_line_row(const PgResult& r, int row) {
    LineResult l;
    l.file = std::string(r.text(row, 1));
    l.function = std::string(r.text(row, 2));
    l.line = static_cast<std::uint32_t>(r.int64(row, 3));
    l.text = r.optional_text(row, 4).value_or(std::string());
    l.cost = static_cast<std::uint64_t>(r.int64(row, 5));
    if (const auto ir = r.optional_int64(row, 6))
        l.events.set(metrics::Event::Ir, static_cast<std::uint64_t>(*ir));
    return l;
}

}  // namespace

void write_lines(Connection& c, const std::string& seq, const RunResult& run, std::size_t first,
                 std::size_t last) {
    LineColumns cols;
    for (std::size_t i = first; i < last; ++i) {
        const auto kept = history::kept_lines(run.benchmarks[i].lines);
        for (std::size_t rank = 0; rank < kept.size(); ++rank)
            cols.add(i, rank, kept[rank]);
    }
    if (cols.positions.empty()) return;
    c.exec(kInsertSymbols, {text_array(cols.files), text_array(cols.functions)});
    c.exec(kInsertTexts, {text_array(cols.texts)});
    c.exec(kInsertLines,
           {seq, text_array(cols.positions), text_array(cols.ranks), text_array(cols.files),
            text_array(cols.functions), text_array(cols.lines), text_array(cols.texts),
            text_array(cols.costs), text_array(cols.irs)});
}

void attach_lines(Connection& c, std::int64_t handle, const std::vector<std::int64_t>& positions,
                  std::vector<BenchmarkResult>& benchmarks) {
    history::StoredLineSink sink(positions, benchmarks);
    const auto r = c.exec(kSelectLines, {std::to_string(handle)});
    for (int row = 0; row < r.rows(); ++row)
        sink.add(r.int64(row, 0), read_line_row(r, row));
}

}  // namespace cgbench::postgres_store
