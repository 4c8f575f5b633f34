#include "ci/forms.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::ci {

namespace {

std::optional<std::string> value_of(const exec::EnvMap& env, std::string_view name) {
    const auto it = env.find(std::string(name));
    if (it == env.end() || it->second.empty() || it->second == "false") return std::nullopt;
    return it->second;
}

std::string without_branch_prefix(std::string value) {
    for (const std::string_view prefix : {"refs/heads/", "refs/remotes/origin/", "origin/"}) {
        if (util::starts_with(value, prefix)) return value.substr(prefix.size());
    }
    return value;
}

// N of "refs/pull/N/merge" or "refs/pull/N/head".
std::optional<std::string> pull_number(std::string_view ref) {
    constexpr std::string_view kPrefix = "refs/pull/";
    if (!util::starts_with(ref, kPrefix)) return std::nullopt;
    ref.remove_prefix(kPrefix.size());
    const auto digits = ref.substr(0, ref.find('/'));
    if (digits.empty() || !util::parse_u64(digits)) return std::nullopt;
    return std::string(digits);
}

// The string (or whole number) at `path` ("a.b") in the JSON file `file`; nullopt when
// unreadable or absent.
std::optional<std::string> json_string(const std::string& file, std::string_view path) {
    try {
        auto doc = nlohmann::json::parse(util::read_file(file));
        const nlohmann::json* at = &doc;
        for (const auto key : util::split(path, '.')) {
            if (!at->is_object() || !at->contains(std::string(key))) return std::nullopt;
            at = &(*at)[std::string(key)];
        }
        if (at->is_number_unsigned()) return std::to_string(at->get<std::uint64_t>());
        if (!at->is_string() || at->get<std::string>().empty()) return std::nullopt;
        return at->get<std::string>();
    } catch (const std::exception&) {  // a missing or damaged file: the fact is unknown
        return std::nullopt;
    }
}

// One placeholder's text (between the braces), expanded.
std::optional<std::string> placeholder(std::string_view spec, const exec::EnvMap& env) {
    const auto op = spec.find_first_of(":=@");
    const auto name = spec.substr(0, op);
    if (op == std::string_view::npos) return value_of(env, name);
    const auto arg = spec.substr(op + 1);
    if (spec[op] == '=') {
        const auto it = env.find(std::string(name));
        if (it == env.end() || it->second != arg) return std::nullopt;
        return std::string();
    }
    auto value = value_of(env, name);
    if (!value) return std::nullopt;
    if (spec[op] == '@') return json_string(*value, arg);
    if (arg == "branch") return without_branch_prefix(*value);
    if (arg == "pr") return pull_number(*value);
    if (arg == "url") {
        while (!value->empty() && value->back() == '/')
            value->pop_back();
        return value;
    }
    throw std::logic_error("unknown filter in a CI form: " + std::string(spec));
}

bool upper_name(std::string_view spec) {
    return !spec.empty() && std::isupper(static_cast<unsigned char>(spec[0])) != 0;
}

}  // namespace

bool is_set(const exec::EnvMap& env, std::string_view name) {
    return value_of(env, name).has_value();
}

std::optional<std::string> expand(std::string_view form, const exec::EnvMap& env) {
    if (form.empty()) return std::nullopt;
    std::string out;
    std::size_t at = 0;
    while (at < form.size()) {
        const auto open = form.find('{', at);
        const auto close = open == std::string_view::npos ? open : form.find('}', open);
        if (close == std::string_view::npos) {
            out += form.substr(at);
            break;
        }
        out += form.substr(at, open - at);
        const auto spec = form.substr(open + 1, close - open - 1);
        if (upper_name(spec)) {
            const auto value = placeholder(spec, env);
            if (!value) return std::nullopt;
            out += *value;
        } else {
            out += form.substr(open, close - open + 1);
        }
        at = close + 1;
    }
    return out;
}

std::optional<std::string> first_of(const Forms& forms, const exec::EnvMap& env) {
    for (const auto form : forms) {
        if (auto v = expand(form, env)) return v;
    }
    return std::nullopt;
}

std::vector<std::string> variables_of(const Forms& forms) {
    std::vector<std::string> out;
    for (const auto form : forms) {
        for (auto open = form.find('{'); open != std::string_view::npos;
             open = form.find('{', open + 1)) {
            const auto close = form.find('}', open);
            if (close == std::string_view::npos) break;
            const auto spec = form.substr(open + 1, close - open - 1);
            if (!upper_name(spec)) continue;
            std::string name(spec.substr(0, spec.find_first_of(":=@")));
            if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        }
    }
    return out;
}

}  // namespace cgbench::ci
