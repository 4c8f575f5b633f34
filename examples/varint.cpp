// varint: protobuf-style varint parsing over a buffer of varints written end-on-end, after
// "How to microbenchmark" (Performance Tip of the Week #75).
//
//   varint [COUNT] [WIDTH] [PASSES]
//     COUNT   varints in the buffer (default 100000)
//     WIDTH   1..5 bytes per varint, or 0 for a random mix (default 0)
//     PASSES  passes over the buffer (default 1)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

std::uint8_t* write_varint32(std::uint8_t* buf, std::uint32_t value) {
    while (value >= 0x80) {
        *buf++ = static_cast<std::uint8_t>(value | 0x80);
        value >>= 7;
    }
    *buf++ = static_cast<std::uint8_t>(value);
    return buf;
}

__attribute__((noinline)) const std::uint8_t* parse_varint32(const std::uint8_t* buf,
                                                             std::uint32_t* value) {
    std::uint32_t tmp = 0;
    int shift = 0;
    std::uint8_t byte = 0;
    do {
        byte = *buf++;
        tmp |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
        shift += 7;
    } while ((byte & 0x80) != 0 && shift < 35);
    *value = tmp;
    return buf;
}

std::uint32_t value_of_width(int width, std::uint64_t& state) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // LCG, fixed seed
    const auto r = static_cast<std::uint32_t>(state >> 33);
    if (width == 0) width = 1 + static_cast<int>(r % 5);
    const std::uint64_t lo = width == 1 ? 0 : 1ULL << (7 * (width - 1));
    const std::uint64_t hi = width == 5 ? 0xFFFFFFFFULL : (1ULL << (7 * width)) - 1;
    return static_cast<std::uint32_t>(lo + r % (hi - lo + 1));
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const int width = argc > 2 ? std::atoi(argv[2]) : 0;
    const int passes = argc > 3 ? std::atoi(argv[3]) : 1;
    if (width < 0 || width > 5) {
        std::fprintf(stderr, "usage: %s [COUNT] [WIDTH 0..5] [PASSES]\n", argv[0]);
        return 2;
    }
    std::vector<std::uint8_t> buffer(count * 5 + 8);
    std::uint64_t state = 42;
    std::uint8_t* end = buffer.data();
    for (std::size_t i = 0; i < count; ++i)
        end = write_varint32(end, value_of_width(width, state));

    std::uint64_t sum = 0;
    for (int p = 0; p < passes; ++p) {
        const std::uint8_t* read = buffer.data();
        while (read < end) {
            std::uint32_t v = 0;
            read = parse_varint32(read, &v);
            sum += v;
        }
    }
    std::printf("varint: %zu values of width %d, %d passes, sum %llu\n", count, width, passes,
                static_cast<unsigned long long>(sum));
    return 0;
}
