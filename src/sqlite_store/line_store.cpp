#include "sqlite_store/line_store.hpp"

#include <string>

#include "history/backend.hpp"
#include "metrics/events.hpp"

namespace cgbench::sqlite_store {

namespace {

constexpr std::string_view kInsertLine = R"sql(
INSERT INTO result_lines (run, position, rank, symbol, line, text, cost, ir)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8))sql";

constexpr std::string_view kSelectLines = R"sql(
SELECT l.position, s.file, s.name, l.line, t.text, l.cost, l.ir
FROM result_lines l JOIN symbols s ON s.id = l.symbol LEFT JOIN line_texts t ON t.id = l.text
WHERE l.run = ?1 ORDER BY l.position, l.rank)sql";

// Counts are unsigned 64-bit, SQLite integers signed: stored as their two's complement.
std::int64_t line_count_column(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

// A row of kSelectLines as a line.
LineResult read_line_row(const Statement& s) {
    LineResult l;
    l.file = std::string(s.text(1));
    l.function = std::string(s.text(2));
    l.line = static_cast<std::uint32_t>(s.int64(3));
    l.text = s.optional_text(4).value_or(std::string());
    l.cost = static_cast<std::uint64_t>(s.int64(5));
    if (const auto ir = s.optional_int64(6))
        l.events.set(metrics::Event::Ir, static_cast<std::uint64_t>(*ir));
    return l;
}

}  // namespace

LineWriter::LineWriter(Database& db)
    : symbols_(db, "symbols", {"file", "name"}),
      texts_(db, "line_texts", {"text"}),
      insert_(db.prepare(kInsertLine)) {}

void LineWriter::write(std::int64_t run, std::size_t position,
                       const std::vector<LineResult>& lines) {
    for (std::size_t rank = 0; rank < lines.size(); ++rank) {
        const auto& l = lines[rank];
        auto& s = insert_;
        s.reset();
        s.bind(1, run).bind(2, static_cast<std::int64_t>(position));
        s.bind(3, static_cast<std::int64_t>(rank)).bind(4, symbols_.id({l.file, l.function}));
        s.bind(5, static_cast<std::int64_t>(l.line));
        if (l.text.empty()) {
            s.bind_null(6);
        } else {
            s.bind(6, texts_.id({l.text}));
        }
        s.bind(7, line_count_column(l.cost));
        if (l.events.has(metrics::Event::Ir)) {
            s.bind(8, line_count_column(l.events.get(metrics::Event::Ir)));
        } else {
            s.bind_null(8);
        }
        s.run();
    }
}

void attach_lines(Database& db, std::int64_t run, const std::vector<std::int64_t>& positions,
                  std::vector<BenchmarkResult>& benchmarks) {
    history::StoredLineSink sink(positions, benchmarks);
    auto s = db.prepare(kSelectLines);
    s.bind(1, run);
    while (s.step())
        sink.add(s.int64(0), read_line_row(s));
}

}  // namespace cgbench::sqlite_store
