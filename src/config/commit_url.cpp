#include "config/commit_url.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "ci/facts.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace {

constexpr std::string_view kPlaceholder = "{commit}";

bool web_scheme(std::string_view url) {
    return util::starts_with(url, "https://") || util::starts_with(url, "http://");
}

std::string_view without_suffix(std::string_view text, std::string_view suffix) {
    if (text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix) {
        text.remove_suffix(suffix.size());
    }
    return text;
}

// The commit path of a forge at `host`, or nullopt when the host is not one cgbench knows.
std::optional<std::string_view> commit_path(std::string_view host) {
    if (host == "github.com" || util::starts_with(host, "github.")) return "/commit/";
    if (host.find("gitlab") != std::string_view::npos) return "/-/commit/";
    if (host == "bitbucket.org") return "/commits/";
    if (host == "codeberg.org") return "/commit/";
    return std::nullopt;
}

// host and path of a remote URL: "scheme://[user@]host[:port]/path" or scp-like
// "user@host:path".
std::optional<std::pair<std::string_view, std::string_view>> host_and_path(std::string_view url) {
    if (const auto scheme = url.find("://"); scheme != std::string_view::npos) {
        url.remove_prefix(scheme + 3);
        const auto slash = url.find('/');
        if (slash == std::string_view::npos) return std::nullopt;
        auto host = url.substr(0, slash);
        if (const auto at = host.rfind('@'); at != std::string_view::npos) host.remove_prefix(at + 1);
        if (const auto colon = host.find(':'); colon != std::string_view::npos) {
            host = host.substr(0, colon);
        }
        return std::make_pair(host, url.substr(slash + 1));
    }
    const auto colon = url.find(':');
    const auto at = url.find('@');
    if (colon == std::string_view::npos || at == std::string_view::npos || at > colon) {
        return std::nullopt;  // a local path
    }
    return std::make_pair(url.substr(at + 1, colon - at - 1), url.substr(colon + 1));
}

}  // namespace

std::string check_commit_url(std::string_view tmpl) {
    if (!web_scheme(tmpl) || tmpl.find(kPlaceholder) == std::string_view::npos) {
        throw UsageError(
            fmt::format("--commit-url '{}' is not an http(s) URL with {{commit}} in it",
                        util::printable(tmpl)),
            "e.g. --commit-url 'https://github.com/OWNER/REPO/commit/{commit}'");
    }
    return std::string(tmpl);
}

std::optional<std::string> commit_url_from_ci(const exec::EnvMap& env) {
    const auto facts = ci::read_facts(env);
    if (facts.commit_url && web_scheme(*facts.commit_url) &&
        facts.commit_url->find(kPlaceholder) != std::string::npos) {
        return facts.commit_url;
    }
    return facts.remote ? commit_url_from_remote(*facts.remote) : std::nullopt;
}

std::optional<std::string> commit_url_from_remote(std::string_view remote) {
    const auto parts = host_and_path(util::trim(remote));
    if (!parts) return std::nullopt;
    const auto [host, raw_path] = *parts;
    const auto path = without_suffix(without_suffix(raw_path, "/"), ".git");
    const auto commits = commit_path(host);
    if (!commits || path.empty() || host.empty()) return std::nullopt;
    for (const char c : path) {  // keep the URL plain: no spaces, quotes or markup
        if (static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '<' || c == '>' ||
            c == '\\' || c == '\'') {
            return std::nullopt;
        }
    }
    return fmt::format("https://{}/{}{}{}", host, path, *commits, kPlaceholder);
}

std::string commit_url(std::string_view tmpl, std::string_view commit) {
    std::string out;
    for (std::size_t at = 0;;) {
        const auto next = tmpl.find(kPlaceholder, at);
        out += tmpl.substr(at, next - at);
        if (next == std::string_view::npos) break;
        out += commit;
        at = next + kPlaceholder.size();
    }
    return out;
}

}  // namespace cgbench::config
