// magic_squares: 3x3 magic-square checks over a precomputed random input, after "Learning
// the value of good benchmarking technique with C++ magic squares". The input stream is
// generated once (std::mt19937 with seed 0) so the benchmark measures the check, not the
// generator, and the branch pattern is as unpredictable as real input.
//
//   magic_squares VARIANT [SQUARES] [PASSES]
//     VARIANT  direct | oddity | center5 | precached
//     SQUARES  candidate squares in the input (default 100000)
//     PASSES   passes over the input (default 1)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kMagic = '5' * 3;

// The direct solution: rows, columns, diagonals, then uniqueness of the digits.
__attribute__((noinline)) bool direct(const char* sq) {
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

// Round 1: an "early-out" on odd/even positions before the direct check.
__attribute__((noinline)) bool oddity(const char* sq) {
    if ((sq[0] & 1) != 0 || (sq[1] & 1) == 0 || (sq[2] & 1) != 0 || (sq[3] & 1) == 0 ||
        (sq[4] & 1) == 0 || (sq[5] & 1) == 0 || (sq[6] & 1) != 0 || (sq[7] & 1) == 0 ||
        (sq[8] & 1) != 0) {
        return false;
    }
    return direct(sq);
}

// Round 2: the centre of every 3x3 magic square is 5.
__attribute__((noinline)) bool center5(const char* sq) {
    if (sq[4] != '5') return false;
    return direct(sq);
}

// Round 4: compare against the eight known squares.
__attribute__((noinline)) bool precached(const char* sq) {
    static const std::array<std::string, 8> all = {"816357492", "492357816", "618753294",
                                                   "294753618", "834159672", "672159834",
                                                   "438951276", "276951438"};
    for (const auto& m : all) {
        if (m.compare(0, 9, sq, 9) == 0) return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    using Check = bool (*)(const char*);
    const std::pair<const char*, Check> variants[] = {
        {"direct", direct}, {"oddity", oddity}, {"center5", center5}, {"precached", precached}};
    Check check = nullptr;
    for (const auto& [name, fn] : variants) {
        if (argc > 1 && std::strcmp(argv[1], name) == 0) check = fn;
    }
    if (check == nullptr) {
        std::fprintf(stderr, "usage: %s direct|oddity|center5|precached [SQUARES] [PASSES]\n",
                     argv[0]);
        return 2;
    }
    const std::size_t squares = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100000;
    const int passes = argc > 3 ? std::atoi(argv[3]) : 1;

    std::mt19937 rng(0);
    std::uniform_int_distribution<int> digit('1', '9');
    std::vector<char> input(squares * 9);
    for (char& c : input)
        c = static_cast<char>(digit(rng));
    // Plant the eight magic squares so every variant has something to find.
    const char* planted = "816357492";
    for (std::size_t k = 0; k < 8 && k < squares; ++k) {
        std::memcpy(&input[(k * squares / 8) * 9], planted, 9);
    }

    volatile unsigned found = 0;
    for (int p = 0; p < passes; ++p) {
        for (std::size_t i = 0; i + 9 <= input.size(); i += 9) {
            if (check(&input[i])) found = found + 1;
        }
    }
    std::printf("%s: %u magic squares in %zu candidates x %d passes\n", argv[1],
                static_cast<unsigned>(found), squares, passes);
    return 0;
}
