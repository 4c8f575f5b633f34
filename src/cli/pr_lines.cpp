// `cgbench pr`: for a pull request that regressed, the lines whose cost grew most inside the
// files it changed, as annotations on its diff (OUT-DIR/annotations.txt, GitHub workflow
// commands, printed on GitHub Actions; OUT-DIR/codequality.json, GitLab's code-quality report).

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "cli/command.hpp"
#include "cli/pr.hpp"
#include "compare/line_diff.hpp"
#include "core/result_json.hpp"
#include "exec/git.hpp"
#include "report/line_annotations.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli::pr {

namespace {

// Where the sandbox mounts the checkout (exec/sandbox.hpp): a program built inside it names
// its sources so.
constexpr std::string_view kSandboxTree = "/cgbench/tree/";

// The most output git diff --name-only may give (a path list of a very large change).
constexpr std::size_t kMaxChangedList = 16u << 20;

// The files the pull request changed: the base commit against the work tree as measured
// (committed and uncommitted changes), relative to the repository's top.
std::set<std::string> changed_files(const exec::Git& git, const std::string& base_commit) {
    std::set<std::string> out;
    const auto list =
        git.run({"diff", "-z", "--name-only", "--no-renames", base_commit, "--"}, kMaxChangedList);
    if (!list) return out;
    for (const auto name : util::split(*list, '\0')) {
        if (!name.empty()) out.insert(as_json_text(std::string(name)));  // as results name it
    }
    return out;
}

std::vector<report::LineAnnotation> grown_lines(const config::PrPlan& plan,
                                                const compare::Comparison& comparison,
                                                const Context& ctx) {
    std::vector<report::LineAnnotation> out;
    const auto base_file = plan.out_dir / "base-commit";
    if (!fs::exists(base_file)) return out;
    const std::string base_commit(util::trim(util::read_file(base_file)));
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    const auto top = git.run({"rev-parse", "--show-toplevel"});
    if (!top || base_commit.empty()) return out;
    const auto changed = changed_files(exec::Git(*top, ctx.env, ctx.runner), base_commit);
    for (const auto& b : comparison.benchmarks) {
        if (b.verdict != compare::Verdict::Regression || !comparison.fails_gate(b) || !b.base ||
            !b.head) {
            continue;
        }
        for (const auto& c : compare::diff_lines(b.base->lines, b.head->lines, SIZE_MAX)) {
            if (c.delta <= 0 || !c.head_line) continue;
            const auto path = repository_path(c.file, *top);
            if (!path || changed.count(*path) == 0) continue;
            out.push_back({*path, *c.head_line, b.name, c.function, c.text, c.delta, c.at_least,
                           b.base->cost});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& x, const auto& y) { return x.delta > y.delta; });
    if (out.size() > kMaxLineAnnotations) out.resize(kMaxLineAnnotations);
    return out;
}

}  // namespace

std::optional<std::string> repository_path(std::string_view file, const fs::path& top) {
    if (file.empty() || file == "???") return std::nullopt;
    if (util::starts_with(file, kSandboxTree)) file.remove_prefix(kSandboxTree.size());
    fs::path path = fs::path(std::string(file)).lexically_normal();
    if (path.is_absolute()) {
        // The top as given, with its links resolved, and as a result file names it (bytes
        // that are not UTF-8 as U+FFFD).
        std::error_code ec;
        std::vector<fs::path> roots = {top.lexically_normal(), fs::weakly_canonical(top, ec)};
        roots.emplace_back(as_json_text(roots.front().string()));
        for (auto root : roots) {
            if (!root.has_filename()) root = root.parent_path();
            const auto rel = path.lexically_relative(root);
            if (!rel.empty() && *rel.begin() != "..") {
                path = rel;
                break;
            }
        }
        if (path.is_absolute()) return std::nullopt;
    }
    const std::string out = path.generic_string();
    if (out.empty() || out == "." || util::starts_with(out, "../") || out == "..")
        return std::nullopt;
    return out;
}

void annotate_lines(const config::PrPlan& plan, const compare::Comparison& comparison,
                    const Context& ctx) {
    const auto found = grown_lines(plan, comparison, ctx);
    util::write_file_atomic(plan.out_dir / "codequality.json", report::gitlab_code_quality(found));
    const std::string commands = report::github_annotations(found);
    util::write_file_atomic(plan.out_dir / "annotations.txt", commands);
    if (found.empty()) return;
    const auto it = ctx.env.find("GITHUB_ACTIONS");
    if (it != ctx.env.end() && it->second == "true") print_out(commands);
    say(ctx, fmt::format("{} line{} whose cost grew annotated in the changed files "
                         "(annotations.txt, codequality.json)",
                         found.size(), found.size() == 1 ? "" : "s"));
}

}  // namespace cgbench::cli::pr
