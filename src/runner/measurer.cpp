#include "runner/measurer.hpp"

#include "runner/measurement.hpp"

namespace cgbench::runner {

Measurer::Measurer(valgrind::Installation inst, MeasureSettings settings,
                   exec::ProcessRunner& runner, exec::EnvMap caller)
    : launcher_(std::move(inst), std::move(settings), runner, std::move(caller)) {}

BenchmarkResult Measurer::measure(const BenchmarkSpec& spec, int attempt) {
    return WholeProgram().measure(launcher_, spec, attempt).front();
}

std::vector<BenchmarkResult> Measurer::measure_all(const BenchmarkSpec& spec, int attempt) {
    return measurement_for(spec, settings(), installation()).measure(launcher_, spec, attempt);
}

CallProfile measure_call_tree(Measurer& measurer, const BenchmarkSpec& spec) {
    return CallGraph().measure_tree(measurer.launcher(), spec);
}

}  // namespace cgbench::runner
