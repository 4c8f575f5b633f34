#include "config/layered.hpp"

namespace cgbench::config {

std::string_view to_string(Source s) {
    switch (s) {
        case Source::Default:
            return "default";
        case Source::SuiteDefaults:
            return "suite defaults";
        case Source::SuiteEntry:
            return "suite entry";
        case Source::Environment:
            return "environment";
        case Source::CommandLine:
            return "command line";
    }
    return "default";
}

Layered layered_default(std::string value) {
    return Layered{std::move(value), Source::Default, "built-in"};
}

void apply(Layered& base, const std::optional<std::string>& value, Source source,
           std::string origin) {
    if (!value) return;
    base = Layered{*value, source, std::move(origin)};
}

void apply_env(Layered& base, const exec::EnvMap& env, std::string_view var) {
    const auto it = env.find(std::string(var));
    if (it == env.end() || it->second.empty()) return;
    base = Layered{it->second, Source::Environment, std::string(var)};
}

}  // namespace cgbench::config
