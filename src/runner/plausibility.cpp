#include "runner/plausibility.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// What a benchmark did, apart from cache history: instructions and memory references.
bool same_work(const BenchmarkResult& a, const BenchmarkResult& b) {
    using metrics::Event;
    for (const auto e : {Event::Ir, Event::Dr, Event::Dw}) {
        if (a.events.has(e) != b.events.has(e) || a.events.get(e) != b.events.get(e)) return false;
    }
    return a.events.has(Event::Ir);
}

bool measured(const BenchmarkResult& r) {
    return r.status == BenchStatus::Ok && !r.events.empty();
}

std::string region_of(const BenchmarkResult& r) {
    return r.region ? r.region->name : std::string();
}

}  // namespace

std::string name_family(std::string_view name) {
    const auto cut = name.find_last_of("/ :=,");
    return cut == std::string_view::npos ? std::string() : std::string(name.substr(0, cut));
}

bool are_variants(const BenchmarkResult& a, const BenchmarkResult& b) {
    if (a.name == b.name || a.tool != b.tool) return false;
    const std::string family = name_family(a.name);
    if (!family.empty() && family == name_family(b.name)) return true;
    return !a.command.empty() && !b.command.empty() && a.command.front() == b.command.front() &&
           a.command != b.command && region_of(a) == region_of(b);
}

namespace {

// The warning for a result that executed too few instructions; empty if it did not.
std::string too_little(const BenchmarkResult& r) {
    const std::uint64_t ir = r.events.get(metrics::Event::Ir);
    if (r.gbench && ir * std::max<std::uint64_t>(r.gbench->iterations, 1) < kMinLoopInstructions) {
        return fmt::format(
            "one iteration of '{}' executed only {} instructions (an empty loop takes 4 or 5): "
            "was its body optimised away? Use its result (benchmark::DoNotOptimize)",
            util::printable(r.gbench->benchmark), ir);
    }
    if (r.region && ir < kMinRegionInstructions) {
        return fmt::format(
            "region '{}' executed only {} instructions: was its body optimised away? Use its "
            "result (e.g. benchmark::DoNotOptimize, a volatile sink)",
            util::printable(r.region->name), ir);
    }
    return {};
}

}  // namespace

void flag_implausible(std::vector<BenchmarkResult>& results) {
    for (auto& r : results) {
        if (!measured(r)) continue;
        if (auto warning = too_little(r); !warning.empty()) {
            r.warnings.push_back(std::move(warning));
        }
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
        for (std::size_t j = 0; j < results.size(); ++j) {
            const auto& other = results[j];
            if (i == j || !measured(results[i]) || !measured(other)) continue;
            if (!are_variants(results[i], other) || !same_work(results[i], other)) continue;
            results[i].warnings.push_back(fmt::format(
                "costs exactly the same as '{}' (same instructions and memory accesses): is the "
                "parameter used?",
                util::printable(other.name)));
            break;  // one such warning per result is enough
        }
    }
}

}  // namespace cgbench::runner
