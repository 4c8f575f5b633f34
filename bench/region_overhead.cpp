// What the region markers of include/cgbench/cgbench.h cost outside Valgrind: an empty loop
// body, the C macros, and the C++ scope object. Build target bench_region_overhead; run
// build/bench/bench_region_overhead (not part of the test suite: timings are not tests).

#include <benchmark/benchmark.h>
#include <cgbench/cgbench.h>

namespace {

void BM_EmptyLoop(benchmark::State& state) {
    for (auto _ : state)
        benchmark::ClobberMemory();
}
BENCHMARK(BM_EmptyLoop);

void BM_RegionMacros(benchmark::State& state) {
    for (auto _ : state) {
        CGBENCH_REGION_BEGIN("overhead");
        benchmark::ClobberMemory();
        CGBENCH_REGION_END("overhead");
    }
}
BENCHMARK(BM_RegionMacros);

void BM_RegionNested(benchmark::State& state) {
    for (auto _ : state) {
        CGBENCH_REGION_BEGIN("outer");
        CGBENCH_REGION_BEGIN("inner");
        benchmark::ClobberMemory();
        CGBENCH_REGION_END("inner");
        CGBENCH_REGION_END("outer");
    }
}
BENCHMARK(BM_RegionNested);

void BM_RegionScope(benchmark::State& state) {
    for (auto _ : state) {
        cgbench::Region region("overhead");
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_RegionScope);

}  // namespace

BENCHMARK_MAIN();
