#include "cli/commit_range.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

// Each end of RANGE ("A..B" or "B") as a commit; UsageError naming one git does not know.
void check_range(const exec::Git& git, const std::string& range) {
    if (range.find("...") != std::string::npos) {
        throw UsageError(
            fmt::format("RANGE '{}': backfill takes A..B or B, not A...B", util::printable(range)),
            "name the first-parent commits after A up to B as A..B");
    }
    const auto dots = range.find("..");
    for (const auto& end : {range.substr(0, dots),
                            dots == std::string::npos ? std::string() : range.substr(dots + 2)}) {
        if (end.empty()) continue;
        if (!git.run({"rev-parse", "--verify", "--quiet", "--end-of-options", end + "^{commit}"})) {
            throw UsageError(
                fmt::format("'{}' is not a commit of this repository", util::printable(end)),
                "name a commit, branch or tag; a commit missing from the clone needs `git fetch "
                "origin REF`, or `git fetch --unshallow` in a shallow clone");
        }
    }
}

}  // namespace

std::vector<std::string> first_parent_commits(const exec::Git& git, const std::string& range) {
    check_range(git, range);
    const auto text =
        git.run_or_throw({"rev-list", "--first-parent", "--reverse", "--end-of-options", range},
                         "list the commits of " + util::printable(range));
    std::vector<std::string> out;
    for (const auto c : util::split(text, '\n')) {
        if (!util::trim(c).empty()) out.emplace_back(util::trim(c));
    }
    if (out.empty()) {
        throw UsageError(fmt::format("RANGE '{}' holds no commits", util::printable(range)),
                         "A..B names the commits after A up to B: A must be older than B");
    }
    return out;
}

std::vector<std::string> every_and_last(const std::vector<std::string>& all, std::size_t every,
                                        std::optional<std::size_t> last) {
    std::vector<std::string> out;
    every = std::max<std::size_t>(every, 1);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if ((all.size() - 1 - i) % every == 0) out.push_back(all[i]);
    }
    if (last && out.size() > *last) {
        out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(*last));
    }
    return out;
}

std::string branch_of_range(const exec::Git& git, const std::string& range, const exec::EnvMap& env,
                            const std::string& newest) {
    const auto dots = range.find("..");
    const auto end = dots == std::string::npos ? range : range.substr(dots + 2);
    if (const auto ref = git.run({"rev-parse", "--symbolic-full-name", "--end-of-options",
                                  end.empty() ? "HEAD" : end})) {
        for (const std::string_view prefix : {"refs/heads/", "refs/remotes/"}) {
            if (!util::starts_with(*ref, prefix)) continue;
            auto name = ref->substr(prefix.size());
            if (prefix == "refs/remotes/") name = name.substr(name.find('/') + 1);  // origin/
            if (!name.empty() && name != "HEAD") return name;
        }
    }
    if (const auto it = env.find("CGBENCH_BRANCH"); it != env.end() && !it->second.empty()) {
        return it->second;
    }
    const auto current = git.run({"rev-parse", "--abbrev-ref", "HEAD"});
    if (current && *current != "HEAD" && git.run({"merge-base", "--is-ancestor", newest, "HEAD"})) {
        return *current;
    }
    throw UsageError(fmt::format("cannot tell which branch the commits of '{}' belong to",
                                 util::printable(range)),
                     "name it: --branch main (or end RANGE with a branch name)");
}

}  // namespace cgbench::cli
