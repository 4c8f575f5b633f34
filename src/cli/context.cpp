#include "cli/context.hpp"

#include <unistd.h>

namespace cgbench::cli {

namespace {

bool color_on_stdout(const exec::EnvMap& env) {
    const auto no_color = env.find("NO_COLOR");
    const auto term = env.find("TERM");
    if (no_color != env.end() && !no_color->second.empty()) return false;
    if (term != env.end() && term->second == "dumb") return false;
    return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace

Context process_context(const GlobalOptions& global, exec::ProcessRunner& runner) {
    auto env = exec::current_environment();
    const bool color = color_on_stdout(env);
    return Context{.global = global,
                   .env = std::move(env),
                   .cwd = std::filesystem::current_path(),
                   .runner = runner,
                   .color = color,
                   .now = [] { return std::time(nullptr); }};
}

}  // namespace cgbench::cli
