// Seed 000's varint benchmarks ("How to microbenchmark", Performance Tip of the Week #75) as a
// Google Benchmark binary, for `cgbench run --gbench`. BM_OneshotVarintParsing is the naive
// first version: without DoNotOptimize the compiler removes the parse, and cgbench warns.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace {

std::uint8_t* WriteVarint32(std::uint8_t* buf, std::uint32_t value) {
    while (value >= 0x80) {
        *buf++ = static_cast<std::uint8_t>(value | 0x80);
        value >>= 7;
    }
    *buf++ = static_cast<std::uint8_t>(value);
    return buf;
}

inline const std::uint8_t* ParseVarint32(const std::uint8_t* buf, std::uint32_t* value) {
    std::uint32_t tmp = 0;
    int count = 0;
    std::uint8_t byte = 0;
    do {
        byte = buf[0];
        tmp |= static_cast<std::uint32_t>(byte & 0x7F) << (7 * count);
        ++buf;
        ++count;
    } while ((byte & 0x80) != 0 && count < 5);
    *value = tmp;
    return buf;
}

// A fixed value of `width` - 1 extra bytes (the seed draws one at random).
std::uint32_t value_of_shift(int shift) {
    const std::uint64_t lo = std::uint64_t{1} << (7 * shift);
    const std::uint64_t hi = std::min<std::uint64_t>((lo << 7) - 1, UINT_MAX);
    return static_cast<std::uint32_t>(lo + (hi - lo) / 3);
}

void BM_OneshotVarintParsing(benchmark::State& state) {
    std::uint8_t buf[10];
    WriteVarint32(buf, 3000000000U);
    for (auto s : state) {
        std::uint32_t read;
        ParseVarint32(buf, &read);  // unused: the compiler drops the parse
    }
}
BENCHMARK(BM_OneshotVarintParsing);

void BM_OneshotVarintParsingSingleWidth(benchmark::State& state) {
    std::uint8_t buf[10];
    WriteVarint32(buf, value_of_shift(static_cast<int>(state.range(0))));
    for (auto s : state) {
        std::uint32_t read;
        ParseVarint32(buf, &read);
        benchmark::DoNotOptimize(read);
    }
}
BENCHMARK(BM_OneshotVarintParsingSingleWidth)->DenseRange(0, 4);

// Varints end-on-end, parsed as a chain; KeepRunningBatch makes one iteration one varint.
void BM_VarintParsingEndOnEnd(benchmark::State& state) {
    constexpr int kNumVarints = 1000;
    const std::uint32_t target = value_of_shift(static_cast<int>(state.range(0)));
    std::vector<std::uint8_t> v(5 * kNumVarints, 0);
    std::uint8_t* buf = v.data();
    for (int i = 0; i < kNumVarints; ++i)
        buf = WriteVarint32(buf, target);
    const std::uint8_t* const end_buf = buf;
    while (state.KeepRunningBatch(kNumVarints)) {
        const std::uint8_t* read_buf = v.data();
        while (read_buf < end_buf) {
            std::uint32_t read;
            read_buf = ParseVarint32(read_buf, &read);
            benchmark::DoNotOptimize(read);
        }
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VarintParsingEndOnEnd)->DenseRange(0, 4);

}  // namespace

BENCHMARK_MAIN();
