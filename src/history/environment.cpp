#include "history/environment.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace cgbench::history {

namespace {

std::string or_unknown(const std::string& v) {
    return v.empty() ? "unknown" : v;
}

std::string compilers_text(const Fingerprint& f) {
    return f.compilers.empty() ? "not recorded" : util::join(f.compilers, "; ");
}

}  // namespace

std::vector<std::string> environment_changes(const Fingerprint& before, const Fingerprint& after) {
    auto out = before.differences(after);
    if (before.cgbench_version != after.cgbench_version) {
        out.push_back(fmt::format("cgbench: {} vs {}", or_unknown(before.cgbench_version),
                                  or_unknown(after.cgbench_version)));
    }
    if (before.loader_cache != after.loader_cache) {
        out.push_back(fmt::format("loader cache: {} vs {}", or_unknown(before.loader_cache),
                                  or_unknown(after.loader_cache)));
    }
    // A run from before compilers were recorded says nothing about them: not a change.
    if (!before.compilers.empty() && !after.compilers.empty() &&
        before.compilers != after.compilers) {
        out.push_back(
            fmt::format("compiler: {} vs {}", compilers_text(before), compilers_text(after)));
    }
    return out;
}

bool same_environment(const Fingerprint& a, const Fingerprint& b) {
    return environment_changes(a, b).empty();
}

std::string describe(const Fingerprint& f) {
    const auto geometry = f.geometry.name == "custom" ? f.geometry.describe() : f.geometry.name;
    std::string out = fmt::format("{} · valgrind {} · glibc {} · geometry {} · weights {} · cpu {}",
                                  f.tool, or_unknown(f.valgrind_version),
                                  or_unknown(f.glibc_version), geometry, f.weights.describe(),
                                  or_unknown(f.cpu_baseline));
    if (!f.compilers.empty()) out += " · " + util::join(f.compilers, "; ");
    return out;
}

}  // namespace cgbench::history
