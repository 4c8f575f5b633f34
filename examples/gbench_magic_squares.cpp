// Seed 001's magic-square checks ("Learning the value of good benchmarking technique with
// C++ magic squares") as a Google Benchmark binary, for `cgbench run --gbench`. The input is
// precomputed once in a fixture (std::mt19937, seed 0): the loop measures the check only.
#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kMagic = '5' * 3;
constexpr std::size_t kSquares = 1000;

bool direct(const char* sq) {
    if ((sq[0] + sq[1] + sq[2] != kMagic) || (sq[3] + sq[4] + sq[5] != kMagic) ||
        (sq[6] + sq[7] + sq[8] != kMagic) || (sq[0] + sq[3] + sq[6] != kMagic) ||
        (sq[1] + sq[4] + sq[7] != kMagic) || (sq[2] + sq[5] + sq[8] != kMagic) ||
        (sq[0] + sq[4] + sq[8] != kMagic) || (sq[2] + sq[4] + sq[6] != kMagic)) {
        return false;
    }
    unsigned map = 0;
    for (int i = 0; i < 9; ++i)
        map ^= 1u << (sq[i] - '1');
    return map == 0x1FF;
}

bool oddity(const char* sq) {
    if ((sq[0] & 1) != 0 || (sq[1] & 1) == 0 || (sq[2] & 1) != 0 || (sq[3] & 1) == 0 ||
        (sq[4] & 1) == 0 || (sq[5] & 1) == 0 || (sq[6] & 1) != 0 || (sq[7] & 1) == 0 ||
        (sq[8] & 1) != 0) {
        return false;
    }
    return direct(sq);
}

bool center5(const char* sq) {
    return sq[4] == '5' && direct(sq);
}

bool precached(const char* sq) {
    static const std::array<std::string, 8> all = {"816357492", "492357816", "618753294",
                                                   "294753618", "834159672", "672159834",
                                                   "438951276", "276951438"};
    for (const auto& m : all) {
        if (m.compare(0, 9, sq, 9) == 0) return true;
    }
    return false;
}

// kSquares random candidates with the eight magic squares planted among them.
class Squares : public benchmark::Fixture {
  public:
    void SetUp(const benchmark::State&) override {
        std::mt19937 rng(0);
        std::uniform_int_distribution<int> digit('1', '9');
        input.resize(kSquares * 9);
        for (char& c : input)
            c = static_cast<char>(digit(rng));
        for (std::size_t k = 0; k < 8; ++k)
            std::memcpy(&input[(k * kSquares / 8) * 9], "816357492", 9);
    }
    template <bool (*Check)(const char*)>
    void run(benchmark::State& state) {
        for (auto _ : state) {
            unsigned found = 0;
            for (std::size_t i = 0; i + 9 <= input.size(); i += 9)
                found += Check(&input[i]) ? 1 : 0;
            benchmark::DoNotOptimize(found);
        }
        state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSquares));
    }
    std::vector<char> input;
};

BENCHMARK_F(Squares, Direct)(benchmark::State& state) {
    run<direct>(state);
}
BENCHMARK_F(Squares, Oddity)(benchmark::State& state) {
    run<oddity>(state);
}
BENCHMARK_F(Squares, Center5)(benchmark::State& state) {
    run<center5>(state);
}
BENCHMARK_F(Squares, Precached)(benchmark::State& state) {
    run<precached>(state);
}

}  // namespace

BENCHMARK_MAIN();
