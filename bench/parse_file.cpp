// bench_parse: how fast cgbench's parsers read a file (for bench/parse_throughput.sh).
//
//   bench_parse [--callgrind] [--functions | --top] [--repeat N] FILE
//
// --functions collects every function's cost; --top what `cgbench run` collects (the 30
// costliest under the default weights, the rest summed).
// Parses FILE N times (default 5) the way `cgbench run` does (map the file, parse,
// check the totals) and prints one line: bytes, the best CPU time (user + system, so that
// other load on the machine counts less than in wall time) and the best wall time, MB/s
// (10^6 bytes per CPU second), and Ir from the file's totals, so a wrong parse cannot go
// unnoticed.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/errors.hpp"
#include "runner/function_costs.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace {

// User + system CPU seconds of this process so far.
double cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    const auto secs = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return secs(u.ru_utime) + secs(u.ru_stime);
}

int usage() {
    std::fprintf(stderr,
                 "usage: bench_parse [--callgrind] [--functions | --top] [--repeat N] FILE\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace cgbench;
    bool callgrind = false;
    valgrind::ParseOptions options;
    int repeat = 5;
    std::string file;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--callgrind") {
            callgrind = true;
        } else if (a == "--functions") {
            options.collect_functions = true;
        } else if (a == "--top") {
            options = runner::top_function_options(metrics::parse_weights("pythonspeed"));
        } else if (a == "--repeat" && i + 1 < argc) {
            repeat = std::atoi(argv[++i]);
        } else if (!a.empty() && a.front() != '-' && file.empty()) {
            file = a;
        } else {
            return usage();
        }
    }
    if (file.empty() || repeat < 1) return usage();
    try {
        double best_cpu = 1e300;
        double best_wall = 1e300;
        std::uint64_t ir = 0;
        std::size_t functions = 0;
        for (int i = 0; i < repeat; ++i) {
            const double cpu_start = cpu_seconds();
            const auto start = std::chrono::steady_clock::now();
            {
                const auto profile = callgrind ? valgrind::parse_callgrind_file(file, options)
                                               : valgrind::parse_cachegrind_file(file, options);
                ir = profile.totals.get(metrics::Event::Ir);
                functions = profile.functions.size();
            }
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            best_wall = std::min(best_wall, took.count());
            best_cpu = std::min(best_cpu, cpu_seconds() - cpu_start);
        }
        const auto bytes = std::filesystem::file_size(file);
        std::printf(
            "%s: %ju bytes, best of %d: %.4f s CPU (%.4f s wall), %.0f MB/s, Ir %ju, "
            "%zu functions\n",
            file.c_str(), static_cast<std::uintmax_t>(bytes), repeat, best_cpu, best_wall,
            static_cast<double>(bytes) / 1e6 / best_cpu, static_cast<std::uintmax_t>(ir),
            functions);
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_parse: %s\n", e.what());
        return 1;
    }
    return 0;
}
