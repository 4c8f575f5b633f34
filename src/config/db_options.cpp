#include "config/db_options.hpp"

#include "base/errors.hpp"
#include "config/layered.hpp"

namespace cgbench::config {

std::optional<std::filesystem::path> resolve_db(const DbInput& input, const exec::EnvMap& env) {
    if (input.disabled) return std::nullopt;
    Layered db = layered_default(std::string(kDefaultDbPath));
    apply_env(db, env, "CGBENCH_DB");
    apply(db, input.path, Source::CommandLine, "--db");
    if (db.value.empty()) {
        throw UsageError("--db needs a path", "pass --db PATH, or --no-db to use no database");
    }
    return std::filesystem::path(db.value);
}

}  // namespace cgbench::config
