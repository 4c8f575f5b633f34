#include "runner/gbench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "util/mapped_file.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// Callgrind matches these against demangled names ("benchmark::State::PauseTiming()").
constexpr std::string_view kStart = "benchmark::State::StartKeepRunning";
constexpr std::string_view kFinish = "benchmark::State::FinishKeepRunning";
constexpr std::string_view kPause = "benchmark::State::PauseTiming";
constexpr std::string_view kResume = "benchmark::State::ResumeTiming";

// What a dump's trigger says about the timer of the measured loop.
enum class Mark { None, Start, Resume, Pause, Finish };

Mark mark_of(std::string_view trigger) {
    const auto is = [&](std::string_view when, std::string_view fn) {
        return util::starts_with(trigger, fmt::format("--dump-{}={}", when, fn));
    };
    if (is("after", kStart)) return Mark::Start;
    if (is("after", kResume)) return Mark::Resume;
    if (is("before", kPause)) return Mark::Pause;
    if (is("before", kFinish)) return Mark::Finish;
    return Mark::None;
}

metrics::EventCounts divided(const metrics::EventCounts& counts, std::uint64_t n) {
    metrics::EventCounts out;
    for (const auto& e : metrics::kEvents) {
        if (counts.has(e.id)) out.set(e.id, (counts.get(e.id) + n / 2) / n);
    }
    return out;
}

}  // namespace

std::vector<std::string> gbench_dump_args() {
    return {fmt::format("--dump-after={}*", kStart), fmt::format("--dump-before={}*", kFinish),
            fmt::format("--dump-before={}*", kPause), fmt::format("--dump-after={}*", kResume)};
}

bool is_gbench_binary(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw UsageError(fmt::format("{} is not a file", path.string()),
                         "give the path of a Google Benchmark binary to --gbench");
    }
    const util::MappedFile file(path);
    const std::string_view bytes = file.view();
    return bytes.find("libbenchmark.so") != std::string_view::npos ||
           bytes.find("benchmark_list_tests") != std::string_view::npos;
}

std::string exact_filter(std::string_view benchmark) {
    std::string out = "^";
    for (const char c : benchmark) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out + "$";
}

std::vector<std::string> parse_benchmark_list(std::string_view stdout_text) {
    std::vector<std::string> names;
    for (const auto line : util::split(stdout_text, '\n')) {
        const auto name = util::trim(line);
        if (!name.empty()) names.emplace_back(name);
    }
    return names;
}

bool accepts_iteration_min_time(std::string_view help_text) {
    return help_text.find("<integer>x") != std::string_view::npos;
}

GbenchLoops select_loops(const std::vector<metrics::Profile>& parts) {
    GbenchLoops out;
    bool in_loop = false;  // between StartKeepRunning and FinishKeepRunning
    bool timing = false;   // in the loop, and not paused by the benchmark
    for (const auto& part : parts) {
        const Mark mark = mark_of(part.trigger);
        if (timing) {
            out.loops.back().timed.add(part);
            if (mark == Mark::Pause || mark == Mark::Finish) ++out.loops.back().intervals;
        }
        switch (mark) {
            case Mark::Start:
                if (in_loop) {
                    out.error =
                        "a measured loop began inside another (multithreaded "
                        "benchmarks are not supported)";
                    return out;
                }
                in_loop = timing = true;
                out.loops.emplace_back();
                break;
            // The library resumes the timer inside StartKeepRunning (before the loop) and
            // pauses it inside FinishKeepRunning (after it): only the benchmark's own calls
            // happen in the loop.
            case Mark::Resume:
                timing = in_loop;
                break;
            case Mark::Pause:
                timing = false;
                break;
            case Mark::Finish:
                if (!in_loop) {
                    out.error = "a measured loop finished that never began";
                    return out;
                }
                in_loop = timing = false;
                break;
            case Mark::None:
                break;
        }
    }
    if (in_loop) out.error = "the last measured loop never finished";
    return out;
}

std::vector<GbenchRun> parse_gbench_report(std::string_view json_text) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(fmt::format("the benchmark report is not JSON: {}", e.what()));
    }
    if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
        throw UsageError("the benchmark report has no \"benchmarks\" array");
    }
    std::vector<GbenchRun> runs;
    for (const auto& b : doc["benchmarks"]) {
        if (!b.is_object() || b.value("run_type", "iteration") != "iteration") continue;
        GbenchRun run;
        run.name = b.value("name", "");
        run.iterations = b.value("iterations", std::uint64_t{0});
        run.threads = b.value("threads", std::uint64_t{1});
        run.error_occurred = b.value("error_occurred", false);
        run.error_message = b.value("error_message", "");
        run.skipped = b.value("skipped", false);
        run.skip_message = b.value("skip_message", "");
        runs.push_back(std::move(run));
    }
    return runs;
}

namespace {

bool same_work(const metrics::EventCounts& a, const metrics::EventCounts& b) {
    using metrics::Event;
    return a.get(Event::Ir) == b.get(Event::Ir) && a.get(Event::Dr) == b.get(Event::Dr) &&
           a.get(Event::Dw) == b.get(Event::Dw);
}

// Why `runs` and `loops` cannot give a cost; empty if they can.
std::string loop_error(std::string_view benchmark, const std::vector<GbenchRun>& runs,
                       const GbenchLoops& loops) {
    if (runs.empty()) {
        return fmt::format("ran no benchmark named '{}' (do its extra arguments filter it out?)",
                           util::printable(benchmark));
    }
    for (const auto& run : runs) {
        if (run.error_occurred) {
            return fmt::format("called SkipWithError: {}", util::printable(run.error_message));
        }
        if (run.skipped) {
            return fmt::format("was skipped (SkipWithMessage): {}",
                               util::printable(run.skip_message));
        }
        if (run.threads > 1) {
            return fmt::format("runs on {} threads; cgbench measures single-threaded benchmarks",
                               run.threads);
        }
    }
    if (!loops.error.empty()) return loops.error;
    if (loops.loops.empty()) {
        return "no measured loop found: Callgrind saw no call of "
               "benchmark::State::StartKeepRunning (are the binary's symbols stripped?)";
    }
    if (loops.loops.size() != runs.size()) {
        return fmt::format("found {} measured loops for {} repetitions", loops.loops.size(),
                           runs.size());
    }
    if (runs.back().iterations == 0) return "its last repetition ran no iteration";
    if (loops.loops.back().profile().column_names.empty()) {
        return "its measured loop was paused (PauseTiming) throughout";
    }
    return {};
}

}  // namespace

GbenchMeasurement measured_loop(std::string_view benchmark, const std::vector<GbenchRun>& runs,
                                const GbenchLoops& loops) {
    GbenchMeasurement out;
    out.error = loop_error(benchmark, runs, loops);
    if (!out.error.empty()) return out;
    const auto& last = loops.loops.back();
    out.info = {std::string(benchmark), runs.back().iterations, runs.size()};
    out.profile = per_iteration(last.profile(), runs.back().iterations);
    if (loops.loops.size() >= 2) {
        const auto& before = loops.loops[loops.loops.size() - 2].profile().totals;
        if (!same_work(before, last.profile().totals)) {
            out.warnings.push_back(fmt::format(
                "repetitions {} and {} of the loop executed different work (Ir {} and {}): its "
                "cost depends on state earlier repetitions left (e.g. the heap); the last one "
                "is reported, and is the same in every run",
                runs.size() - 1, runs.size(), before.get(metrics::Event::Ir),
                last.profile().totals.get(metrics::Event::Ir)));
        }
    }
    return out;
}

metrics::Profile per_iteration(const metrics::Profile& profile, std::uint64_t iterations) {
    metrics::Profile out = profile;
    if (iterations <= 1) return out;
    out.totals = divided(profile.totals, iterations);
    for (auto& f : out.functions)
        f.counts = divided(f.counts, iterations);
    for (auto& l : out.lines)
        l.counts = divided(l.counts, iterations);
    return out;
}

}  // namespace cgbench::runner
