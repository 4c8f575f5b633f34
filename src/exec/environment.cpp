#include "exec/environment.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "exec/fixed_inputs.hpp"
#include "util/strings.hpp"

extern char** environ;

namespace cgbench::exec {

namespace {

constexpr std::string_view kPadName = "CGBENCH_ENV_PAD";

bool valid_name(std::string_view name) {
    if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
    for (const char c : name) {
        const bool ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

std::size_t block_size(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    std::size_t n = 0;
    for (const auto& a : argv)
        n += a.size() + 1;
    for (const auto& e : env)
        n += e.size() + 1;
    return n;
}

}  // namespace

EnvMap current_environment() {
    EnvMap out;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string_view entry(*e);
        const auto eq = entry.find('=');
        if (eq == std::string_view::npos) continue;
        out.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
    }
    return out;
}

EnvRequest parse_env_request(const std::string& text) {
    const auto eq = text.find('=');
    EnvRequest req;
    req.name = text.substr(0, eq);
    if (eq != std::string::npos) req.value = text.substr(eq + 1);
    if (!valid_name(req.name)) {
        throw UsageError(fmt::format("invalid --env '{}': '{}' is not a variable name",
                                     util::printable(text), util::printable(req.name)),
                         "use --env NAME=VALUE or --env NAME to pass NAME through");
    }
    if (req.name == "_" || req.name == kPadName || req.name == kRegionVariable ||
        req.name == kFixedVariable) {
        throw UsageError(fmt::format("--env cannot set {}: cgbench manages it", req.name));
    }
    if (req.name == "VALGRIND_OPTS" || req.name == "VALGRIND_LIB" ||
        req.name == "VALGRIND_LAUNCHER") {
        throw UsageError(
            fmt::format("--env cannot set {}: it changes how Valgrind measures, and cgbench "
                        "passes every Valgrind option itself",
                        req.name),
            "use cgbench's options (--geometry, --weights, --branch-sim, ...)");
    }
    return req;
}

std::vector<std::string> loader_variables(const std::vector<EnvRequest>& requests,
                                          const EnvMap& caller) {
    std::vector<std::string> out;
    for (const auto& r : requests) {
        if (!r.name.starts_with("LD_") && r.name != "GLIBC_TUNABLES") continue;
        const auto it = caller.find(r.name);
        const std::string value = r.value ? *r.value : it != caller.end() ? it->second : "";
        out.push_back(r.name + "=" + value);
    }
    return out;
}

BuiltEnvironment build_environment(const EnvironmentSpec& spec, const EnvMap& caller) {
    // Fixed values first, then what the user asked for, then the variables whose length may
    // vary between machines (so they shift as little as possible), then the pad.
    EnvMap fixed = {{"LANG", "C.UTF-8"},       {"TZ", "UTC"},
                    {"HOME", "/nonexistent"},  {"PYTHONHASHSEED", "0"},
                    {"PERL_HASH_SEED", "0"},   {"PERL_PERTURB_KEYS", "0"},
                    {"PYTHONNOUSERSITE", "1"}, {"SHELL", "/bin/sh"}};
    EnvMap varying = {{"PATH", std::string(kFixedPath)}};
    EnvMap user;
    for (const auto& req : spec.requests) {
        std::string value;
        if (req.value) {
            value = *req.value;
        } else if (const auto it = caller.find(req.name); it != caller.end()) {
            value = it->second;
        } else {
            throw UsageError(
                fmt::format("--env {} passes {} through, but it is not set", req.name, req.name),
                fmt::format("set it, or give a value: --env {}=VALUE", req.name));
        }
        EnvMap& slot = varying.count(req.name) ? varying : fixed.count(req.name) ? fixed : user;
        slot[req.name] = value;
    }
    if (!spec.preload.empty()) {
        auto& p = user.count("LD_PRELOAD") ? user["LD_PRELOAD"] : fixed["LD_PRELOAD"];
        p = p.empty() ? spec.preload : spec.preload + ":" + p;
        fixed[std::string(kFixedVariable)] = spec.fixed;
    }
    if (!spec.glibc_tunables.empty()) {
        auto& t = user.count("GLIBC_TUNABLES") ? user["GLIBC_TUNABLES"] : fixed["GLIBC_TUNABLES"];
        t = t.empty() ? spec.glibc_tunables : spec.glibc_tunables + ":" + t;
    }

    BuiltEnvironment out;
    for (const EnvMap* group : {&fixed, &user}) {
        for (const auto& [k, v] : *group)
            out.entries.push_back(k + "=" + v);
    }
    out.entries.push_back("_=" + spec.underscore);
    for (const auto& [k, v] : varying)
        out.entries.push_back(k + "=" + v);

    const std::size_t pad_overhead = kPadName.size() + 2;  // "NAME=" and the NUL
    const std::size_t needed = block_size(spec.argv, out.entries) + pad_overhead;
    std::size_t target = kEnvBlockBudget;
    if (needed > target) {
        target = (needed + 4095) / 4096 * 4096;
        out.over_budget = true;
    }
    out.entries.push_back(std::string(kPadName) + "=" + std::string(target - needed, 'x'));
    out.block_bytes = block_size(spec.argv, out.entries);
    return out;
}

}  // namespace cgbench::exec
