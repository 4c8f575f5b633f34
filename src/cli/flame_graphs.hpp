#pragma once
// Differential flame graphs of one benchmark between two builds (`cgbench pr`: base and
// head; `cgbench steps --flame`: the two commits of a step): each side's planned run
// measures the benchmark again under Callgrind, and the head's call paths are drawn coloured
// by how they moved from the base's.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/context.hpp"
#include "config/run_options.hpp"
#include "core/call_tree.hpp"
#include "runner/measurer.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::cli {

// One side of a flame graph: its planned run (never recorded) and the Valgrind measuring it.
struct FlameSide {
    config::RunPlan plan;
    const valgrind::Installation* inst = nullptr;
};

// The call tree of one benchmark on one side, or why there is none.
struct FlameTree {
    std::optional<CallTree> tree;
    std::string problem;  // "the base has no program for it (...)": one clause, for a message
};

// The entry of `specs` measuring `name`: the entry itself, or the one whose regions it names.
// nullptr for a Google Benchmark entry (its binary runs every benchmark it holds) or none.
const runner::BenchmarkSpec* flame_spec_of(const std::vector<runner::BenchmarkSpec>& specs,
                                           std::string_view name);

// `name` measured under Callgrind on `side`; `which` names the side in the problem ("base").
// Throws as the measurement does (Interrupted, Error).
FlameTree measure_flame_tree(const FlameSide& side, const std::string& name, std::string_view which,
                             const Context& ctx);

// The subtitle of a graph: "cost +12.3% (BASE_LABEL 1,000 -> HEAD_LABEL 1,123); call paths
// as Callgrind counts the whole program".
std::string flame_subtitle(std::uint64_t base_cost, std::uint64_t head_cost,
                           std::string_view base_label, std::string_view head_label);

// Draws the differential graph of `name` (widths: `head`'s cost; red costlier than `base`,
// blue cheaper) into DIR/FILE (written atomically).
void write_flame_graph(const std::filesystem::path& file, const std::string& name,
                       const std::string& subtitle, const CallTree& head, const CallTree& base);

}  // namespace cgbench::cli
