#include "core/result_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "base/errors.hpp"
#include "metrics/score.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& what) {
    throw UsageError(fmt::format("{}: invalid result file: {}", source, what),
                     "pass a file written by `cgbench run --out`");
}

bool control(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

void check_no_nul(const std::string& source, std::string_view what, std::string_view text) {
    if (text.find('\0') != std::string_view::npos) {
        fail(source, fmt::format("{} holds a NUL character", what));
    }
}

void check_benchmark(const std::string& source, const BenchmarkResult& b, std::size_t i) {
    const std::string where = fmt::format("benchmarks[{}]", i);
    check_no_nul(source, where + ".name", b.name);
    if (!std::isfinite(b.wall_seconds) || b.wall_seconds < 0) {
        fail(source, where + ".wall_seconds is not a finite number of seconds");
    }
    if (b.status != BenchStatus::Ok) return;
    std::uint64_t expected = 0;
    try {
        expected = metrics::cost(b.events, b.weights);
    } catch (const UsageError& e) {
        fail(source,
             fmt::format("{}: the cost cannot be computed from its events ({})", where, e.what()));
    }
    if (expected != b.cost) {
        fail(source, fmt::format("{}.cost is {}, but its events and weights ({}) give {}", where,
                                 b.cost, b.weights.describe(), expected));
    }
}

}  // namespace

std::optional<std::string> run_id_problem(std::string_view id) {
    if (id.empty()) return "is empty";
    if (id.size() > kMaxRunIdBytes) {
        return fmt::format("is {} bytes long (at most {})", id.size(), kMaxRunIdBytes);
    }
    if (id == "." || id == "..") return fmt::format("is '{}'", id);
    for (std::string_view rest = id; !rest.empty();) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(rest, cp);
        if (n == 0) return "is not UTF-8";
        if (control(cp)) return "holds a control character";
        if (cp == '/' || cp == '\\') return fmt::format("holds a '{}'", static_cast<char>(cp));
        rest.remove_prefix(n);
    }
    return std::nullopt;
}

void check_result_values(const RunResult& run, const std::string& source) {
    if (const auto problem = run_id_problem(run.id)) {
        fail(source,
             fmt::format("run.id '{}' {}", util::printable(run.id.substr(0, 64)), *problem));
    }
    if (run.started.size() != 20 || run.started.back() != 'Z' ||
        !util::parse_iso8601(run.started)) {
        fail(source, fmt::format("run.started '{}' is not a UTC time written "
                                 "YYYY-MM-DDTHH:MM:SSZ",
                                 util::printable(run.started.substr(0, 64))));
    }
    if (run.git.commit) check_no_nul(source, "run.git.commit", *run.git.commit);
    if (run.git.branch) check_no_nul(source, "run.git.branch", *run.git.branch);
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i)
        check_benchmark(source, run.benchmarks[i], i);
}

}  // namespace cgbench
