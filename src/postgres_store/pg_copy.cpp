#include "postgres_store/pg_copy.hpp"

#include <fmt/format.h>

#include "postgres_store/pg.hpp"

#if CGBENCH_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace cgbench::postgres_store {

namespace {

// The big-endian integer of `n` bytes `bytes` starts with, taken off it; nullopt when it is
// shorter.
std::optional<std::int64_t> take_copy_int(std::string_view& bytes, std::size_t n) {
    if (bytes.size() < n) return std::nullopt;
    const auto v = binary_int(bytes.substr(0, n));
    bytes.remove_prefix(n);
    return v;
}

}  // namespace

std::int64_t binary_int(std::string_view bytes) {
    if (bytes.size() != 2 && bytes.size() != 4 && bytes.size() != 8) return 0;
    std::uint64_t u = 0;
    for (const char c : bytes)
        u = (u << 8) | static_cast<unsigned char>(c);
    const unsigned bits = 64 - 8 * static_cast<unsigned>(bytes.size());
    return static_cast<std::int64_t>(u << bits) >> bits;
}

CopyRow::CopyRow(std::string_view tuple) {
    const auto count = take_copy_int(tuple, 2);
    for (int i = 0; count && i < *count && i < kMaxFields; ++i) {
        const auto length = take_copy_int(tuple, 4);
        if (!length) break;
        ++size_;
        if (*length < 0) continue;  // NULL
        const auto n = static_cast<std::size_t>(*length);
        if (n > tuple.size()) break;
        fields_[i] = tuple.substr(0, n);
        tuple.remove_prefix(n);
    }
}

std::optional<std::string_view> CopyRow::field(int i) const {
    if (i < 0 || i >= size_) return std::nullopt;
    return fields_[i];
}

std::optional<std::int64_t> CopyRow::int64(int i) const {
    const auto f = field(i);
    if (!f) return std::nullopt;
    return binary_int(*f);
}

#if CGBENCH_HAVE_LIBPQ

namespace {

// What starts a binary COPY stream: the signature, flags, and the length of a header
// extension that follows.
constexpr std::string_view kCopySignature{"PGCOPY\n\377\r\n\0", 11};

// Ends a COPY however the reading ends: one left early (an error or Ctrl-C in a callback)
// is cancelled and read to its end, so the connection serves the ROLLBACK that follows.
class CopyOutGuard {
  public:
    explicit CopyOutGuard(pg_conn* conn) : conn_(conn) {}
    CopyOutGuard(const CopyOutGuard&) = delete;
    CopyOutGuard& operator=(const CopyOutGuard&) = delete;
    ~CopyOutGuard() {
        if (finished) return;
        if (PGcancel* cancel = PQgetCancel(conn_)) {
            char why[256];
            PQcancel(cancel, why, sizeof why);
            PQfreeCancel(cancel);
        }
        char* buffer = nullptr;
        while (PQgetCopyData(conn_, &buffer, 0) > 0)
            PQfreemem(buffer);
        while (PGresult* r = PQgetResult(conn_))
            PQclear(r);
    }
    bool finished = false;

  private:
    pg_conn* conn_;
};

// Takes the stream's header off `data` (the first message); false when it is not one.
bool take_copy_header(std::string_view& data) {
    if (data.substr(0, kCopySignature.size()) != kCopySignature) return false;
    data.remove_prefix(kCopySignature.size());
    const auto flags = take_copy_int(data, 4);
    const auto extension = take_copy_int(data, 4);
    if (!flags || !extension || *extension < 0 ||
        static_cast<std::size_t>(*extension) > data.size()) {
        return false;
    }
    data.remove_prefix(static_cast<std::size_t>(*extension));
    return true;
}

}  // namespace

void Connection::copy_out(std::string_view query, const std::function<void(const CopyRow&)>& row) {
    const auto sql = fmt::format("COPY ({}) TO STDOUT (FORMAT binary)", query);
    PgResult started(PQexec(conn_, sql.c_str()));
    if (PQresultStatus(started.raw()) != PGRES_COPY_OUT) fail("a query failed");
    CopyOutGuard guard(conn_);
    bool first = true;
    for (;;) {
        char* buffer = nullptr;
        const int n = PQgetCopyData(conn_, &buffer, 0);
        if (n == -1) break;  // the end
        if (n < 0) fail("a query failed");
        const std::unique_ptr<char, decltype(&PQfreemem)> owned(buffer, PQfreemem);
        std::string_view data(buffer, static_cast<std::size_t>(n));
        if (first && !take_copy_header(data)) fail("the server sent no binary COPY");
        first = false;
        if (data.size() < 2 || binary_int(data.substr(0, 2)) < 0) continue;  // the trailer
        row(CopyRow(data));
    }
    guard.finished = true;
    PgResult ended(PQgetResult(conn_));
    PQclear(PQgetResult(conn_));  // the NULL after it
    if (PQresultStatus(ended.raw()) != PGRES_COMMAND_OK) fail("a query failed");
}

std::string Connection::literal(std::string_view value) const {
    char* quoted = PQescapeLiteral(conn_, value.data(), value.size());
    if (quoted == nullptr) fail("cannot quote a value");
    std::string out(quoted);
    PQfreemem(quoted);
    return out;
}

#else

void Connection::copy_out(std::string_view, const std::function<void(const CopyRow&)>&) {
    fail("");
}
std::string Connection::literal(std::string_view) const {
    fail("");
}

#endif

}  // namespace cgbench::postgres_store
