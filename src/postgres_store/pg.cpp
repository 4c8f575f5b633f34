#include "postgres_store/pg.hpp"

#include <fmt/format.h>

#include <charconv>

#include "base/errors.hpp"
#include "util/strings.hpp"

#if CGBENCH_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace cgbench::postgres_store {

namespace {

// The first line of a libpq message, without its "ERROR:  "/"FATAL:  " decoration.
std::string first_line(std::string_view message) {
    auto line = message.substr(0, message.find('\n'));
    for (std::string_view prefix : {"ERROR:  ", "FATAL:  "}) {
        if (line.substr(0, prefix.size()) == prefix) line.remove_prefix(prefix.size());
    }
    return util::printable(util::trim(line));
}

// `url` without ?project=NAME (and &project=NAME), and that name, percent-decoded.
std::pair<std::string, std::optional<std::string>> take_project(const std::string& url) {
    const auto q = url.find('?');
    if (q == std::string::npos) return {url, std::nullopt};
    std::vector<std::string> kept;
    std::optional<std::string> project;
    for (const auto part : util::split(std::string_view(url).substr(q + 1), '&')) {
        if (part.substr(0, 8) == "project=") {
            std::string name;
            const auto v = part.substr(8);
            for (std::size_t i = 0; i < v.size(); ++i) {
                unsigned code = 0;
                if (v[i] == '%' && i + 2 < v.size() &&
                    std::from_chars(v.data() + i + 1, v.data() + i + 3, code, 16).ptr ==
                        v.data() + i + 3) {
                    name += static_cast<char>(code);
                    i += 2;
                } else {
                    name += v[i];
                }
            }
            project = name;
        } else if (!part.empty()) {
            kept.emplace_back(part);
        }
    }
    std::string rest = url.substr(0, q);
    if (!kept.empty()) rest += "?" + util::join(kept, "&");
    return {rest, project};
}

// Whether the URL's user part carries a password (postgresql://USER:PASSWORD@...).
bool has_password(std::string_view url) {
    const auto start = url.find("//");
    if (start == std::string_view::npos) return false;
    const auto rest = url.substr(start + 2);
    const auto at = rest.find('@');
    const auto slash = rest.find('/');
    if (at == std::string_view::npos || (slash != std::string_view::npos && slash < at))
        return false;
    return rest.substr(0, at).find(':') != std::string_view::npos;
}

[[noreturn]] void bad_syntax(const std::string& why) {
    throw UsageError(fmt::format("--db: the PostgreSQL URL is not valid ({})", why),
                     "write --db postgresql://USER@HOST:PORT/DATABASE; give the password in "
                     "PGPASSWORD or ~/.pgpass rather than in the URL");
}

}  // namespace

std::string text_array(const std::vector<Param>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        if (!values[i]) {
            out += "NULL";
            continue;
        }
        out += '"';
        for (const char c : *values[i]) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

std::string int_array(const std::vector<std::int64_t>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? "," : "") + std::to_string(values[i]);
    return out + "}";
}

#if CGBENCH_HAVE_LIBPQ

bool built_in() {
    return true;
}

PgLocation parse_location(const std::string& url) {
    auto [conninfo, project] = take_project(url);
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
    if (options == nullptr) {
        // libpq may quote a piece of the URL, and with it of a password.
        const std::string why =
            has_password(url) || error == nullptr ? std::string("bad syntax") : first_line(error);
        PQfreemem(error);
        bad_syntax(why);
    }
    std::string user, host, port, db;
    for (auto* o = options; o->keyword != nullptr; ++o) {
        const std::string_view k = o->keyword;
        const std::string v = o->val != nullptr ? o->val : "";
        if (k == "user") user = v;
        if (k == "host" && host.empty()) host = v;
        if (k == "hostaddr" && host.empty()) host = v;
        if (k == "port") port = v;
        if (k == "dbname") db = v;
    }
    PQconninfoFree(options);
    if (project && project->empty()) bad_syntax("project= names no project");
    for (const auto part : util::split(port, ',')) {
        if (port.empty()) break;
        if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos) {
            bad_syntax(fmt::format("the port '{}' is not a number", util::printable(port)));
        }
    }
    PgLocation out;
    out.conninfo = std::move(conninfo);
    out.shown = fmt::format("postgresql://{}{}{}/{}", user.empty() ? "" : user + "@", host,
                            port.empty() ? "" : ":" + port, db);
    out.project = std::move(project);
    return out;
}

PgResult::PgResult(pg_result* r) : r_(r) {}
PgResult::PgResult(PgResult&& other) noexcept : r_(other.r_) {
    other.r_ = nullptr;
}
PgResult::~PgResult() {
    if (r_ != nullptr) PQclear(r_);
}
int PgResult::rows() const {
    return PQntuples(r_);
}
bool PgResult::null(int row, int column) const {
    return PQgetisnull(r_, row, column) != 0;
}
std::string_view PgResult::text(int row, int column) const {
    return {PQgetvalue(r_, row, column), static_cast<std::size_t>(PQgetlength(r_, row, column))};
}
std::optional<std::string> PgResult::optional_text(int row, int column) const {
    if (null(row, column)) return std::nullopt;
    return std::string(text(row, column));
}
std::int64_t PgResult::int64(int row, int column) const {
    const auto t = text(row, column);
    std::int64_t v = 0;
    std::from_chars(t.data(), t.data() + t.size(), v);
    return v;
}
std::optional<std::int64_t> PgResult::optional_int64(int row, int column) const {
    if (null(row, column)) return std::nullopt;
    return int64(row, column);
}
std::optional<bool> PgResult::optional_bool(int row, int column) const {
    if (null(row, column)) return std::nullopt;
    return text(row, column) == "t";
}
bool PgResult::has_rows() const {
    return r_ != nullptr && PQresultStatus(r_) == PGRES_TUPLES_OK;
}
std::size_t PgResult::affected() const {
    const char* n = PQcmdTuples(r_);
    std::size_t v = 0;
    std::from_chars(n, n + std::char_traits<char>::length(n), v);
    return v;
}

Connection::Connection(const PgLocation& location) : shown_(location.shown) {
    conn_ = PQconnectdb(location.conninfo.c_str());
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
        const std::string why =
            conn_ == nullptr ? "out of memory" : first_line(PQerrorMessage(conn_));
        if (conn_ != nullptr) PQfinish(conn_);
        conn_ = nullptr;
        throw EnvironmentError(
            fmt::format("history database {}: cannot connect ({})", shown_, why),
            "check that the server runs and the URL, user and password (PGPASSWORD or "
            "~/.pgpass) are right, or pass --no-db");
    }
    // Messages from the server (notices) are not cgbench's output.
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
}

Connection::Connection(Connection&& other) noexcept
    : conn_(other.conn_), shown_(std::move(other.shown_)) {
    other.conn_ = nullptr;
}

Connection::~Connection() {
    if (conn_ != nullptr) PQfinish(conn_);
}

void Connection::fail(std::string_view what) const {
    const bool lost = PQstatus(conn_) != CONNECTION_OK;
    throw EnvironmentError(
        fmt::format("history database {}: {}{} ({})", shown_, what,
                    lost ? ": the connection was lost" : "", first_line(PQerrorMessage(conn_))),
        lost ? "check that the server runs, then run again" : "check the server's log");
}

PgResult Connection::exec(std::string_view sql) {
    return exec(sql, {});
}

PgResult Connection::exec(std::string_view sql, const std::vector<Param>& params) {
    const std::string text(sql);
    PGresult* r = nullptr;
    if (params.empty()) {
        r = PQexec(conn_, text.c_str());
    } else {
        std::vector<const char*> values;
        for (const auto& p : params)
            values.push_back(p ? p->c_str() : nullptr);
        r = PQexecParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr,
                         values.data(), nullptr, nullptr, 0);
    }
    PgResult out(r);
    const auto status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail("a query failed");
    return out;
}

void Connection::revive() {
    PGresult* probe = PQexec(conn_, "SELECT 1");
    const bool alive = probe != nullptr && PQresultStatus(probe) == PGRES_TUPLES_OK;
    PQclear(probe);
    if (alive) return;
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK) {
        throw EnvironmentError(fmt::format("history database {}: the connection was lost and "
                                           "cannot be made again ({})",
                                           shown_, first_line(PQerrorMessage(conn_))),
                               "check that the server runs, then run again");
    }
}

PgTransaction::PgTransaction(Connection& c) : c_(c) {
    c_.exec("BEGIN");
}

PgTransaction::~PgTransaction() {
    if (!open_) return;
    try {
        c_.exec("ROLLBACK");
    } catch (const Error&) {
        // The connection is gone: the server rolls the transaction back itself.
    }
}

void PgTransaction::commit() {
    open_ = false;
    c_.exec("COMMIT");
}

#else

// A build without libpq (the static one): postgresql:// is refused before anything connects.
bool built_in() {
    return false;
}
PgLocation parse_location(const std::string&) {
    throw EnvironmentError("this cgbench was built without PostgreSQL support (a static build)",
                           "use a cgbench built with libpq (the distribution's build), or a "
                           "SQLite history");
}
PgResult::PgResult(pg_result* r) : r_(r) {}
PgResult::PgResult(PgResult&& other) noexcept : r_(other.r_) {}
PgResult::~PgResult() = default;
int PgResult::rows() const {
    return 0;
}
bool PgResult::null(int, int) const {
    return true;
}
std::string_view PgResult::text(int, int) const {
    return {};
}
std::optional<std::string> PgResult::optional_text(int, int) const {
    return std::nullopt;
}
std::int64_t PgResult::int64(int, int) const {
    return 0;
}
std::optional<std::int64_t> PgResult::optional_int64(int, int) const {
    return std::nullopt;
}
std::optional<bool> PgResult::optional_bool(int, int) const {
    return std::nullopt;
}
std::size_t PgResult::affected() const {
    return 0;
}
bool PgResult::has_rows() const {
    return false;
}
Connection::Connection(const PgLocation& location) : shown_(location.shown) {
    parse_location(location.conninfo);
}
Connection::Connection(Connection&& other) noexcept : shown_(std::move(other.shown_)) {}
Connection::~Connection() = default;
void Connection::fail(std::string_view) const {
    parse_location(shown_);
}
PgResult Connection::exec(std::string_view) {
    fail("");
}
PgResult Connection::exec(std::string_view, const std::vector<Param>&) {
    fail("");
}
void Connection::revive() {
    fail("");
}
PgTransaction::PgTransaction(Connection& c) : c_(c) {}
PgTransaction::~PgTransaction() = default;
void PgTransaction::commit() {}

#endif

}  // namespace cgbench::postgres_store
