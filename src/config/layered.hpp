#pragma once
// Layered settings. The order is fixed and written here once:
//   built-in default < suite file [defaults] < suite entry < CGBENCH_* environment < command line
// Every resolved value remembers where it came from, so `cgbench config show` (and error
// messages) can say so.

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>

#include "base/errors.hpp"
#include "exec/environment.hpp"

namespace cgbench::config {

enum class Source { Default, SuiteDefaults, SuiteEntry, Environment, CommandLine };
std::string_view to_string(Source s);

struct Layered {
    std::string value;
    Source source = Source::Default;
    std::string origin;  // "--geometry", "CGBENCH_GEOMETRY", "cgbench.toml:12", "built-in"
};

// Starts a layered value at its built-in default.
Layered layered_default(std::string value);

// Applies a layer on top of `base` when `value` is present.
void apply(Layered& base, const std::optional<std::string>& value, Source source,
           std::string origin);

// Applies the environment variable `var` from `env`, if set and non-empty.
void apply_env(Layered& base, const exec::EnvMap& env, std::string_view var);

// `parse(l.value)`; when that throws UsageError for a value from the environment, the message
// names the variable (suite values are checked with their line when the file is read).
template <class Parse>
auto parse_layered(const Layered& l, Parse parse) {
    try {
        return parse(l.value);
    } catch (const UsageError& e) {
        if (l.source != Source::Environment) throw;
        throw UsageError(fmt::format("{} (from {})", e.what(), l.origin), e.hint());
    }
}

}  // namespace cgbench::config
