#include "config/db_options.hpp"

#include <fmt/format.h>

#include <cctype>

#include "base/errors.hpp"
#include "config/layered.hpp"

namespace cgbench::config {

namespace {

bool is_postgresql(const history::Location& url) {
    return url.scheme() == "postgresql:" || url.scheme() == "postgres:";
}

// `name` as a URL's query value: bytes other than letters, digits and -._~/ percent-encoded.
std::string url_encoded(std::string_view name) {
    std::string out;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) != 0 || std::string_view("-._~/").find(c) != std::string_view::npos) {
            out += c;
        } else {
            out += fmt::format("%{:02X}", u);
        }
    }
    return out;
}

// `url` naming the project `project` (else CGBENCH_PROJECT) when it is a PostgreSQL history.
history::Location with_project(const history::Location& url,
                               const std::optional<std::string>& project, const exec::EnvMap& env) {
    if (!is_postgresql(url)) {
        if (project) {
            throw UsageError("--project applies to a PostgreSQL history (--db postgresql://...)",
                             "a SQLite file holds one project: drop --project");
        }
        return url;
    }
    auto name = project;
    if (!name) {
        const auto it = env.find("CGBENCH_PROJECT");
        if (it != env.end() && !it->second.empty()) name = it->second;
    }
    if (!name) return url;
    if (name->empty()) {
        throw UsageError("--project needs a name",
                         "pass --project ORG/REPO, or leave it out for "
                         "the git remote's path");
    }
    const auto& text = url.url();
    return text + (text.find('?') == std::string::npos ? "?" : "&") +
           "project=" + url_encoded(*name);
}

}  // namespace

std::optional<history::Location> resolve_db(const DbInput& input, const exec::EnvMap& env) {
    if (input.disabled) return std::nullopt;
    Layered db = layered_default(std::string(kDefaultDbPath));
    apply_env(db, env, "CGBENCH_DB");
    apply(db, input.path, Source::CommandLine, "--db");
    if (db.value.empty()) {
        throw UsageError("--db needs a path", "pass --db PATH, or --no-db to use no database");
    }
    return with_project(history::Location(db.value), input.project, env);
}

}  // namespace cgbench::config
