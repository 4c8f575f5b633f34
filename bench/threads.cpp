// threads: four std::threads with independent deterministic work, joined; the main thread
// prints a checksum. No shared counter is raced: every thread writes only its own slot.
// (The program of the measurement study, for bench/threads.sh.)
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

static void work(int id, std::uint64_t* out) {
    std::vector<std::uint64_t> v;
    std::uint64_t x = 1469598103934665603ULL + static_cast<std::uint64_t>(id);
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push_back(x);
        if (i % 1000 == 0) {
            std::vector<int> tmp(static_cast<std::size_t>(100 + id));
            v.back() += tmp.size();
        }
    }
    std::uint64_t s = 0;
    for (const auto y : v)
        s += y >> 3;
    *out = s;
}

int main() {
    std::uint64_t r[4] = {};
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; i++)
        ts.emplace_back(work, i, &r[i]);
    for (auto& t : ts)
        t.join();
    std::printf("%llu\n", static_cast<unsigned long long>(r[0] ^ r[1] ^ r[2] ^ r[3]));
}
