#include "sqlite_store/line_store.hpp"

#include <string>
#include <unordered_map>
#include <utility>

#include "history/backend.hpp"
#include "metrics/events.hpp"

namespace cgbench::sqlite_store {

namespace {

constexpr std::string_view kInsertLine = R"sql(
INSERT INTO result_lines (run, position, rank, symbol, line, text, cost, ir)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8))sql";

// Names and texts are looked up by id, each once per run read (a run's results share most of
// them): cheaper than joining every row.
constexpr std::string_view kSelectLines = R"sql(
SELECT position, symbol, line, text, cost, ir FROM result_lines
WHERE run = ?1 ORDER BY position, rank)sql";

// Counts are unsigned 64-bit, SQLite integers signed: stored as their two's complement.
std::int64_t line_count_column(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

// The names and texts of one run's lines, each read once.
class LineNames {
  public:
    explicit LineNames(Database& db)
        : symbol_(db.prepare("SELECT file, name FROM symbols WHERE id = ?1")),
          text_(db.prepare("SELECT text FROM line_texts WHERE id = ?1")) {}

    // A row of kSelectLines as a line.
    LineResult line(const Statement& s) {
        LineResult l;
        const auto& [file, function] = symbol(s.int64(1));
        l.file = file;
        l.function = function;
        l.line = static_cast<std::uint32_t>(s.int64(2));
        if (const auto t = s.optional_int64(3)) l.text = text(*t);
        l.cost = static_cast<std::uint64_t>(s.int64(4));
        if (const auto ir = s.optional_int64(5))
            l.events.set(metrics::Event::Ir, static_cast<std::uint64_t>(*ir));
        return l;
    }

  private:
    const std::pair<std::string, std::string>& symbol(std::int64_t id) {
        auto [it, added] = symbols_.try_emplace(id);
        if (added && look_up(symbol_, id)) {
            it->second = {std::string(symbol_.text(0)), std::string(symbol_.text(1))};
        }
        return it->second;
    }
    const std::string& text(std::int64_t id) {
        auto [it, added] = texts_.try_emplace(id);
        if (added && look_up(text_, id)) it->second = std::string(text_.text(0));
        return it->second;
    }
    static bool look_up(Statement& s, std::int64_t id) {
        s.reset();
        s.bind(1, id);
        return s.step();
    }

    Statement symbol_;
    Statement text_;
    std::unordered_map<std::int64_t, std::pair<std::string, std::string>> symbols_;
    std::unordered_map<std::int64_t, std::string> texts_;
};

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
    LineNames names(db);
    auto s = db.prepare(kSelectLines);
    s.bind(1, run);
    while (s.step())
        sink.add(s.int64(0), names.line(s));
}

}  // namespace cgbench::sqlite_store
