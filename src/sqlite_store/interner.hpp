#pragma once
// Ids of the rows of an interning table (`symbols`: file and name; `line_texts`: text): each
// distinct value is stored once per database and found or inserted once per writer.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// Interns rows of `table` by its `columns` (TEXT NOT NULL, UNIQUE together, with an INTEGER
// PRIMARY KEY `id`); use within the transaction that writes the rows naming them.
class Interner {
  public:
    Interner(Database& db, std::string_view table, const std::vector<std::string_view>& columns);

    // The id of the row holding `values` (one per column), inserted when missing. Values that
    // are not UTF-8 are stored with U+FFFD in place of the bad bytes, as documents store them.
    std::int64_t id(const std::vector<std::string>& values);

  private:
    Database& db_;
    Statement find_;
    Statement insert_;
    std::map<std::vector<std::string>, std::int64_t> ids_;
};

}  // namespace cgbench::sqlite_store
