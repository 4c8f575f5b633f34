#pragma once
// Rows read by COPY ... TO STDOUT (FORMAT binary) (Connection::copy_out): the server writes
// each row once into the stream, without a cursor's portal and FETCH round trips, which
// halves what a million rows of a series scan cost it (0.75 s of CPU through a cursor,
// 0.38 s so). Fields are read in place, integers from their big-endian bytes.

#include <cstdint>
#include <optional>
#include <string_view>

namespace cgbench::postgres_store {

// A binary integer: 2, 4 or 8 bytes, big-endian, signed (0 for any other size).
std::int64_t binary_int(std::string_view bytes);

// One row of a binary COPY, valid during the callback that gets it.
class CopyRow {
  public:
    // `tuple`: a row as the COPY stream holds it (a field count, then each field's length,
    // -1 for NULL, and bytes). Fields past a truncated one read as NULL.
    explicit CopyRow(std::string_view tuple);
    int size() const { return size_; }
    // Field `i`'s bytes; nullopt for NULL (or past the last field).
    std::optional<std::string_view> field(int i) const;
    // Field `i` as a binary integer (text, int2, int4, int8 read by binary_int); nullopt for
    // NULL.
    std::optional<std::int64_t> int64(int i) const;
    // Field `i` as text; empty for NULL.
    std::string_view text(int i) const { return field(i).value_or(std::string_view()); }

  private:
    static constexpr int kMaxFields = 16;
    int size_ = 0;
    std::optional<std::string_view> fields_[kMaxFields];
};

}  // namespace cgbench::postgres_store
