// A Google Benchmark binary the end-to-end tests measure: a loop whose work is linear in its
// argument, a fixture, a template, a range, paused setup inside the loop, two threads, an
// error and (Google Benchmark 1.8 and later) a skip with a message. Built against Debian's
// libbenchmark and against a newer one (tests/gbench/), which defines
// CGBENCH_BENCHMARK_VERSION_MAJOR and _MINOR.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

// Work linear in the argument: 2000 costs twice 1000.
void BM_Loop(benchmark::State& state) {
    const auto n = state.range(0);
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            sum += i;
            benchmark::DoNotOptimize(sum);
        }
    }
}
BENCHMARK(BM_Loop)->Arg(1000)->Arg(2000);

// Setup outside the loop (the fixture and the vector) is not measured.
class Filled : public benchmark::Fixture {
  public:
    void SetUp(const benchmark::State& state) override {
        values.assign(static_cast<std::size_t>(state.range(0)), 3);
    }
    std::vector<int> values;
};
BENCHMARK_DEFINE_F(Filled, Sum)(benchmark::State& state) {
    for (auto _ : state) {
        int sum = 0;
        for (const int v : values)
            sum += v;
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK_REGISTER_F(Filled, Sum)->Arg(100);

template <int N>
void BM_Unrolled(benchmark::State& state) {
    for (auto _ : state) {
        for (int i = 0; i < N; ++i)
            benchmark::DoNotOptimize(i);
    }
}
BENCHMARK_TEMPLATE(BM_Unrolled, 16);

// Same per-iteration work for every argument, minus the argument's setup.
void BM_Range(benchmark::State& state) {
    std::vector<char> buffer(static_cast<std::size_t>(state.range(0)), 1);
    for (auto _ : state) {
        int sum = 0;
        // One store per byte: the work stays linear in the size (g++ 16 would otherwise
        // vectorise the 64-byte loop, leaving the 8-byte one's scalar tail the costlier).
        for (const char c : buffer) {
            sum += c;
            benchmark::DoNotOptimize(sum);
        }
    }
}
BENCHMARK(BM_Range)->Range(8, 64);

// Expensive setup paused out of every iteration: only the 100 additions count.
void BM_Paused(benchmark::State& state) {
    for (auto _ : state) {
        state.PauseTiming();
        std::int64_t setup = 0;
        for (std::int64_t i = 0; i < 100000; ++i) {
            setup += i;
            benchmark::DoNotOptimize(setup);
        }
        state.ResumeTiming();
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < 100; ++i) {
            sum += i;
            benchmark::DoNotOptimize(sum);
        }
    }
}
BENCHMARK(BM_Paused);

// Two threads run the loop at once: refused, since Callgrind's dumps hold every thread.
void BM_Threaded(benchmark::State& state) {
    for (auto _ : state) {
        int x = 1;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(BM_Threaded)->Threads(2);

void BM_Skipped(benchmark::State& state) {
    state.SkipWithError("input file missing");
    for (auto _ : state) {
    }
}
BENCHMARK(BM_Skipped);

#if CGBENCH_BENCHMARK_VERSION_MAJOR > 1 || \
    (CGBENCH_BENCHMARK_VERSION_MAJOR == 1 && CGBENCH_BENCHMARK_VERSION_MINOR >= 8)
// Skipped without an error: reported with a message, no cost.
void BM_SkippedWithMessage(benchmark::State& state) {
    state.SkipWithMessage("no input of this size");
    for (auto _ : state) {
    }
}
BENCHMARK(BM_SkippedWithMessage);
#endif

}  // namespace

BENCHMARK_MAIN();
