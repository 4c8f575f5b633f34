#include "access/history_url.hpp"

#include <fmt/format.h>

#include <cctype>
#include <string_view>

#include "access/memory_history.hpp"
#include "base/errors.hpp"
#include "postgres_store/pg_history.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/strings.hpp"

namespace cgbench::access {

namespace {

using Backend = std::unique_ptr<history::HistoryBackend>;

// Every backend a URL can name, by its scheme, with its open(what follows the scheme,
// access). A new backend is one line here (and its #include). A plain path is SQLite's.
struct Scheme {
    std::string_view prefix;
    Backend (*open)(const std::string& location, Access access);
};
constexpr Scheme kSchemes[] = {
    {"sqlite:", sqlite_store::SqliteHistory::open},
    {"memory:", MemoryHistory::open},
    {"postgresql:", postgres_store::PgHistory::open},
    {"postgres:", postgres_store::PgHistory::open},
};

// The scheme `url` starts with ("name:"), or empty for a plain path. One letter before the
// colon is no scheme, so that nothing that could be a drive letter is taken for one.
std::string_view scheme_of(std::string_view url) {
    const auto colon = url.find(':');
    if (colon == std::string_view::npos || colon < 2 ||
        std::isalpha(static_cast<unsigned char>(url[0])) == 0) {
        return {};
    }
    for (std::size_t i = 1; i < colon; ++i) {
        const auto c = static_cast<unsigned char>(url[i]);
        if (std::isalnum(c) == 0 && c != '+' && c != '-' && c != '.') return {};
    }
    return url.substr(0, colon + 1);
}

}  // namespace

Backend open_history(const std::string& url, Access access) {
    const auto scheme = scheme_of(url);
    if (scheme.empty()) return sqlite_store::SqliteHistory::open(url, access);
    for (const auto& s : kSchemes) {
        if (s.prefix == scheme) return s.open(url.substr(scheme.size()), access);
    }
    std::vector<std::string> known;
    for (const auto& s : kSchemes)
        known.emplace_back(s.prefix);
    throw UsageError(
        fmt::format("--db {}: unknown history scheme '{}' (known: {}, or a path)",
                    util::printable(url), util::printable(scheme), util::join(known, ", ")),
        "pass a file path, or a URL of one of those schemes; write ./NAME for a file whose "
        "name has a colon");
}

Backend open_history_for_run(const std::optional<std::filesystem::path>& url) {
    if (!url) return nullptr;
    return open_history(url->string(), Access::Record);
}

std::optional<history::HistorySource> history_source(
    const std::optional<std::filesystem::path>& url) {
    if (!url) return std::nullopt;
    const std::string url_text = url->string();
    return history::HistorySource{util::without_password(url_text),
                                  [url_text] { return open_history(url_text, Access::Read); }};
}

}  // namespace cgbench::access
