#include "access/history_url.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <string_view>

#include "access/memory_history.hpp"
#include "base/errors.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/strings.hpp"

namespace cgbench::access {

namespace {

using Backend = std::unique_ptr<history::HistoryBackend>;

Backend open_sqlite(const std::string& path, Access access) {
    if (path.empty()) {
        throw UsageError("--db sqlite: needs the path of the database file",
                         "write --db sqlite:PATH, or just --db PATH");
    }
    if (access == Access::Read) return sqlite_store::SqliteHistory::open_existing(path);
    return sqlite_store::SqliteHistory::open_for_recording(path);
}

Backend open_memory(const std::string& rest, Access) {
    if (!rest.empty()) {
        throw UsageError(fmt::format("--db memory:{}: memory: takes nothing after the colon",
                                     util::printable(rest)),
                         "write --db memory: for a history that lasts while cgbench runs");
    }
    return std::make_unique<MemoryHistory>();
}

// Every backend a URL can name, by its scheme. A new backend is one line here.
struct Scheme {
    std::string_view prefix;
    Backend (*open)(const std::string& rest, Access access);
};
constexpr std::array<Scheme, 2> kSchemes{{
    {"sqlite:", open_sqlite},
    {"memory:", open_memory},
}};

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
    if (scheme.empty()) return open_sqlite(url, access);
    for (const auto& s : kSchemes) {
        if (s.prefix == scheme) return s.open(url.substr(scheme.size()), access);
    }
    std::vector<std::string> known;
    for (const auto& s : kSchemes)
        known.emplace_back(s.prefix);
    throw UsageError(
        fmt::format("--db {}: unknown history scheme '{}' (known: {}, or a path)",
                    util::printable(url), util::printable(scheme), util::join(known, ", ")),
        "pass a file path, sqlite:PATH or memory:; write ./NAME for a file whose "
        "name has a colon");
}

Backend open_history_for_run(const std::optional<std::filesystem::path>& url) {
    if (!url) return nullptr;
    return open_history(url->string(), Access::Record);
}

std::optional<history::HistorySource> history_source(
    const std::optional<std::filesystem::path>& url) {
    if (!url) return std::nullopt;
    const std::string name = url->string();
    return history::HistorySource{name, [name] { return open_history(name, Access::Read); }};
}

}  // namespace cgbench::access
