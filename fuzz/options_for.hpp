#pragma once
// Parse options picked from the input, so that one parse per input covers every way cgbench
// parses: totals only, every function, or the top functions under a ranking (what
// `cgbench run` does). The size decides, which keeps the input itself a plain profile.

#include <cstddef>

#include "valgrind/profile_builder.hpp"

namespace cgbench::fuzz {

inline valgrind::ParseOptions options_for(std::size_t size) {
    valgrind::ParseOptions options;
    options.collect_functions = size % 3 != 0;
    if (size % 3 == 2) {
        options.function_limit = 3;
        options.function_rank = [](const metrics::EventCounts& counts) {
            return counts.get(metrics::Event::Ir);
        };
    }
    return options;
}

}  // namespace cgbench::fuzz
