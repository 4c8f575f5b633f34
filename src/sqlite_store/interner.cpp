#include "sqlite_store/interner.hpp"

#include <fmt/format.h>

#include "core/result_json.hpp"

namespace cgbench::sqlite_store {

namespace {

std::string find_sql(std::string_view table, const std::vector<std::string_view>& columns) {
    std::string where;
    for (std::size_t i = 0; i < columns.size(); ++i)
        where += fmt::format("{}{} = ?{}", i ? " AND " : "", columns[i], i + 1);
    return fmt::format("SELECT id FROM {} WHERE {}", table, where);
}

std::string insert_sql(std::string_view table, const std::vector<std::string_view>& columns) {
    std::string names, params;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        names += fmt::format("{}{}", i ? ", " : "", columns[i]);
        params += fmt::format("{}?{}", i ? ", " : "", i + 1);
    }
    return fmt::format("INSERT INTO {} ({}) VALUES ({})", table, names, params);
}

}  // namespace

Interner::Interner(Database& db, std::string_view table,
                   const std::vector<std::string_view>& columns)
    : db_(db),
      find_(db.prepare(find_sql(table, columns))),
      insert_(db.prepare(insert_sql(table, columns))) {}

std::int64_t Interner::id(const std::vector<std::string>& values) {
    std::vector<std::string> key;
    key.reserve(values.size());
    for (const auto& v : values)
        key.push_back(as_json_text(v));
    if (const auto it = ids_.find(key); it != ids_.end()) return it->second;
    find_.reset();
    for (std::size_t i = 0; i < key.size(); ++i)
        find_.bind(static_cast<int>(i) + 1, key[i]);
    std::int64_t id = 0;
    if (find_.step()) {
        id = find_.int64(0);
    } else {
        insert_.reset();
        for (std::size_t i = 0; i < key.size(); ++i)
            insert_.bind(static_cast<int>(i) + 1, key[i]);
        insert_.run();
        id = db_.last_insert_rowid();
    }
    ids_.emplace(std::move(key), id);
    return id;
}

}  // namespace cgbench::sqlite_store
