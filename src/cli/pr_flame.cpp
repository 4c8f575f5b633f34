// `cgbench pr`: differential flame graphs of the regressed benchmarks. Only those are
// measured again, with Callgrind, on both sides, so a passing pull request costs nothing more.

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"
#include "cli/command.hpp"
#include "cli/flame_graphs.hpp"
#include "cli/pr.hpp"
#include "cli/worktree_run.hpp"
#include "exec/interrupt.hpp"
#include "report/escape.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli::pr {

namespace {

FlameSide flame_side(config::RunInput input, Tools& tools, const Context& ctx) {
    input.db.disabled = true;
    FlameSide side{plan_sharded_run(input, ctx), nullptr};
    side.inst = &tools.valgrind(side.plan.request.probe_cache_dir);
    return side;
}

// The call tree of `name` on `side`; nullopt (said) when it cannot be made.
std::optional<CallTree> call_tree(const FlameSide& side, const std::string& name,
                                  std::string_view which, const Context& ctx) {
    auto measured = measure_flame_tree(side, name, which, ctx);
    if (!measured.tree) {
        say(ctx, fmt::format("no flame graph of {}: {}", util::printable(name), measured.problem));
    }
    return std::move(measured.tree);
}

std::string subtitle(const compare::BenchmarkComparison& b) {
    const auto* c = b.change(metrics::Metric::cost());
    if (c == nullptr) return "";
    return flame_subtitle(c->base, c->head, "base", "head");
}

// Appends the graphs drawn (name, file name) to report.md.
void list_in_report(const config::PrPlan& plan,
                    const std::vector<std::pair<std::string, std::string>>& drawn) {
    const auto file = plan.out_dir / "report.md";
    std::string text = util::read_file(file);
    text +=
        "\n### Flame graphs\n\nDifferential flame graphs of the regressed benchmarks "
        "(widths: HEAD's cost; red: costlier than the base, blue: cheaper), in the job's "
        "files:\n\n";
    for (const auto& [name, svg] : drawn) {
        text += fmt::format("- {}: [flame/{}](flame/{})\n", report::markdown_name(name),
                            report::markdown_escape(svg), svg);
    }
    util::write_file_atomic(file, text);
}

// The regressed benchmarks to draw, the worst first, at most kMaxFlameGraphs.
std::vector<const compare::BenchmarkComparison*> regressed(const compare::Comparison& c) {
    std::vector<const compare::BenchmarkComparison*> out;
    for (const auto& b : c.benchmarks) {
        if (b.verdict == compare::Verdict::Regression) out.push_back(&b);
    }
    const auto rel = [](const compare::BenchmarkComparison* b) {
        const auto* h = b->headline();
        return h == nullptr ? 0.0 : h->relative();
    };
    std::stable_sort(out.begin(), out.end(), [&](auto* a, auto* b) { return rel(a) > rel(b); });
    if (out.size() > kMaxFlameGraphs) out.resize(kMaxFlameGraphs);
    return out;
}

}  // namespace

void draw_flame_graphs(const config::PrPlan& plan, const compare::Comparison& comparison,
                       const BaseResults& base, Tools& tools, const Context& ctx) {
    const auto dir = plan.out_dir / "flame";
    std::error_code ec;
    fs::remove_all(dir, ec);  // an earlier run's graphs never survive into this one
    const auto worst = regressed(comparison);
    if (worst.empty() || !plan.flame) return;
    if (!base.checkout) {
        say(ctx,
            "no flame graphs: the base was not built here (its results came from the "
            "history; --no-reuse builds it)");
        return;
    }
    const auto head = flame_side(plan.run, tools, ctx);
    const auto based = flame_side(
        input_in_worktree(plan.run, *base.checkout, WorktreeSuite{true}, ctx), tools, ctx);
    util::ensure_writable_dir(dir, "--out-dir");
    std::vector<std::pair<std::string, std::string>> drawn;
    for (const auto* b : worst) {
        say(ctx, fmt::format("drawing the flame graph of {}: Callgrind on both sides",
                             util::printable(b->name)));
        try {
            const auto base_tree = call_tree(based, b->name, "base", ctx);
            if (!base_tree) continue;
            const auto head_tree = call_tree(head, b->name, "head", ctx);
            if (!head_tree) continue;
            const auto file = util::file_safe(b->name) + ".svg";
            write_flame_graph(dir / file, b->name, subtitle(*b), *head_tree, *base_tree);
            drawn.emplace_back(b->name, file);
        } catch (const Interrupted&) {
            throw;
        } catch (const Error& e) {
            say(ctx, fmt::format("warning: no flame graph of {}: {}", util::printable(b->name),
                                 e.what()));
        }
    }
    if (drawn.empty()) return;
    list_in_report(plan, drawn);
    say(ctx, fmt::format("flame graphs in {}", dir.string()));
}

}  // namespace cgbench::cli::pr
