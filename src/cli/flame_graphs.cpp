#include "cli/flame_graphs.hpp"

#include <fmt/format.h>

#include "report/flame_svg.hpp"
#include "runner/call_stacks.hpp"
#include "runner/measurer.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

const runner::BenchmarkSpec* flame_spec_of(const std::vector<runner::BenchmarkSpec>& specs,
                                           std::string_view name) {
    for (const auto& s : specs) {
        if (s.kind == runner::MeasureKind::Gbench) continue;
        if (s.name == name || (name.size() > s.name.size() && name.starts_with(s.name) &&
                               name[s.name.size()] == '/')) {
            return &s;
        }
    }
    return nullptr;
}

FlameTree measure_flame_tree(const FlameSide& side, const std::string& name, std::string_view which,
                             const Context& ctx) {
    const auto* spec = flame_spec_of(side.plan.request.benchmarks, name);
    if (spec == nullptr) {
        return {std::nullopt, fmt::format("the {} has no program for it (a Google Benchmark "
                                          "entry, or not in its suite)",
                                          which)};
    }
    runner::Measurer measurer(*side.inst, side.plan.request.settings, ctx.runner, ctx.env);
    auto measured = runner::measure_call_tree(measurer, *spec);
    if (measured.result.status != BenchStatus::Ok) {
        return {std::nullopt, fmt::format("its program failed under Callgrind in the {} ({})",
                                          which, util::printable(measured.result.error))};
    }
    return {std::move(measured.tree), {}};
}

std::string flame_subtitle(std::uint64_t base_cost, std::uint64_t head_cost,
                           std::string_view base_label, std::string_view head_label) {
    const double relative =
        base_cost == 0 ? 0.0
                       : (static_cast<double>(head_cost) - static_cast<double>(base_cost)) /
                             static_cast<double>(base_cost);
    return fmt::format("cost {} ({} {} -> {} {}); call paths as Callgrind counts the whole program",
                       util::percent(relative), base_label, util::with_commas(base_cost),
                       head_label, util::with_commas(head_cost));
}

void write_flame_graph(const std::filesystem::path& file, const std::string& name,
                       const std::string& subtitle, const CallTree& head, const CallTree& base) {
    const report::FlameGraph graph{name, subtitle, &head, &base};
    util::write_file_atomic(file, report::render_flame_svg(graph));
}

}  // namespace cgbench::cli
