#include "runner/measurement.hpp"

#include <algorithm>

#include "runner/gbench.hpp"
#include "runner/measurer.hpp"

namespace cgbench::runner {

namespace {

class WholeProgram final : public Measurement {
  public:
    std::string_view kind() const override { return "program"; }
    valgrind::ToolOptions options(const MeasureSettings& s) const override {
        return tool_options(s, valgrind::Tool::Cachegrind);
    }
    std::vector<BenchmarkResult> measure(Measurer& m, const BenchmarkSpec& spec,
                                         int attempt) const override {
        return {m.measure(spec, attempt)};
    }
};

class CachegrindRegions final : public Measurement {
  public:
    std::string_view kind() const override { return "regions"; }
    valgrind::ToolOptions options(const MeasureSettings& s) const override {
        auto o = tool_options(s, valgrind::Tool::Cachegrind);
        o.instr_at_start = false;
        return o;
    }
    std::vector<BenchmarkResult> measure(Measurer& m, const BenchmarkSpec& spec,
                                         int attempt) const override {
        return m.measure_regions_cachegrind(spec, attempt);
    }
};

class CallgrindRegions final : public Measurement {
  public:
    std::string_view kind() const override { return "regions"; }
    valgrind::ToolOptions options(const MeasureSettings& s) const override {
        return tool_options(s, valgrind::Tool::Callgrind);
    }
    std::vector<BenchmarkResult> measure(Measurer& m, const BenchmarkSpec& spec,
                                         int attempt) const override {
        return m.measure_regions_callgrind(spec, attempt);
    }
};

class GbenchBenchmark final : public Measurement {
  public:
    std::string_view kind() const override { return "gbench"; }
    valgrind::ToolOptions options(const MeasureSettings& s) const override {
        auto o = tool_options(s, valgrind::Tool::Callgrind);
        o.dump_triggers = gbench_dump_args();  // collect from the start, dump around the loop
        return o;
    }
    std::vector<BenchmarkResult> measure(Measurer& m, const BenchmarkSpec& spec,
                                         int attempt) const override {
        return {m.measure_gbench(spec, attempt)};
    }
};

}  // namespace

const Measurement& measurement_for(const BenchmarkSpec& spec, const MeasureSettings& settings,
                                   const valgrind::Installation& inst) {
    static const WholeProgram program;
    static const CachegrindRegions cachegrind_regions;
    static const CallgrindRegions callgrind_regions;
    static const GbenchBenchmark gbench;
    switch (spec.kind) {
        case MeasureKind::Gbench:
            return gbench;
        case MeasureKind::Regions:
            if (valgrind::region_tool(settings.region_tool, inst) == valgrind::Tool::Cachegrind) {
                return cachegrind_regions;
            }
            return callgrind_regions;
        case MeasureKind::Program:
            break;
    }
    return program;
}

std::vector<valgrind::ToolOptions> tool_options_of(const std::vector<BenchmarkSpec>& specs,
                                                   const MeasureSettings& settings,
                                                   const valgrind::Installation& inst) {
    std::vector<valgrind::ToolOptions> out;
    for (const auto& spec : specs) {
        auto o = measurement_for(spec, settings, inst).options(settings);
        const auto args = valgrind::behaviour_args(o);
        const bool known = std::any_of(out.begin(), out.end(), [&](const auto& k) {
            return valgrind::behaviour_args(k) == args;
        });
        if (!known) out.push_back(std::move(o));
    }
    if (out.empty()) out.push_back(tool_options(settings, valgrind::Tool::Cachegrind));
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.tool == valgrind::Tool::Cachegrind && b.tool != valgrind::Tool::Cachegrind;
    });
    return out;
}

}  // namespace cgbench::runner
