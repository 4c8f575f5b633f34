#include "access/history_url.hpp"

#include <fmt/format.h>

#include <string_view>

#include "access/memory_history.hpp"
#include "base/errors.hpp"
#include "postgres_store/pg_history.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/strings.hpp"

namespace cgbench::access {

namespace {

using Backend = std::unique_ptr<history::HistoryBackend>;

using Projects = std::optional<std::vector<std::string>>;

// Every backend a URL can name, by its scheme, with its open(what follows the scheme,
// access) and, for a store of many projects, projects(what follows the scheme). A new
// backend is one line here (and its #include). A plain path is SQLite's.
struct Scheme {
    std::string_view prefix;
    Backend (*open)(const std::string& location, Access access);
    Projects (*projects)(const std::string& location) = nullptr;
};
constexpr Scheme kSchemes[] = {
    {"sqlite:", sqlite_store::SqliteHistory::open},
    {"memory:", MemoryHistory::open},
    {"postgresql:", postgres_store::PgHistory::open, postgres_store::PgHistory::projects},
    {"postgres:", postgres_store::PgHistory::open, postgres_store::PgHistory::projects},
};
constexpr Scheme kPlainPath = kSchemes[0];

[[noreturn]] void unknown_scheme(const Location& location);

// The row of `location`'s scheme; UsageError for a scheme no backend has.
const Scheme& scheme_of(const Location& location) {
    const auto scheme = location.scheme();
    if (scheme.empty()) return kPlainPath;
    for (const auto& s : kSchemes) {
        if (s.prefix == scheme) return s;
    }
    unknown_scheme(location);
}

void unknown_scheme(const Location& location) {
    std::vector<std::string> known;
    for (const auto& s : kSchemes)
        known.emplace_back(s.prefix);
    throw UsageError(
        fmt::format("--db {}: unknown history scheme '{}' (known: {}, or a path)", location,
                    util::printable(location.scheme()), util::join(known, ", ")),
        "pass a file path, or a URL of one of those schemes; write ./NAME for a file "
        "whose name has a colon");
}

}  // namespace

Backend open_history(const Location& location, Access access) {
    return scheme_of(location).open(std::string(location.rest()), access);
}

Projects history_projects(const Location& location) {
    const auto& scheme = scheme_of(location);
    if (scheme.projects != nullptr) return scheme.projects(std::string(location.rest()));
    if (!open_history(location, Access::Read)) return std::nullopt;
    return std::vector<std::string>{};
}

Backend open_history_for_run(const std::optional<Location>& url) {
    if (!url) return nullptr;
    return open_history(*url, Access::Record);
}

std::optional<history::HistorySource> history_source(const std::optional<Location>& url) {
    if (!url) return std::nullopt;
    return history::HistorySource{
        url->shown(), [location = *url] { return open_history(location, Access::Read); }};
}

}  // namespace cgbench::access
