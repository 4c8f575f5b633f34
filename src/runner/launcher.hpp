#pragma once
// What a measurement strategy (measurement.hpp) runs a program with: the shared steps of a
// measurement behind one small interface. A strategy asks the Launcher to run the program of
// a spec once (located, staged, with its environment and warm-up, its status interpreted),
// then to read what the run recorded as cgbench's profile model (metrics/profile.hpp:
// totals by the event table of metrics/events.hpp, per-function, per-call and per-line costs)
// and to keep its raw files. How the program is run and how its files are parsed stay behind
// the interface: ValgrindLauncher (valgrind_launcher.hpp) runs Valgrind and reads its files
// with the parsers of valgrind/; a unit test may give a strategy a launcher of its own.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/process.hpp"
#include "metrics/profile.hpp"
#include "runner/benchmark.hpp"
#include "runner/process_tree.hpp"
#include "valgrind/command.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::runner {

// What one launch runs: the tool and its options, more arguments after the program's own,
// and the directory its output goes to (the caller's exec::OutputDir, alive while the run is
// read).
struct LaunchRequest {
    valgrind::ToolOptions options;
    std::vector<std::string> extra_args;
    std::filesystem::path staging;
};

// One launched run: how it ended and how to find its files. A strategy reads its outcome;
// its profiles, logs and processes are read through the Launcher that made it.
struct Run {
    valgrind::OutputFiles files;
    int root_pid = 0;  // the started process (and what it exec'd into); 0: never started
    std::size_t max_processes = 0;
    CommandNames names;
    exec::ProcessOutcome outcome;
    // Cachegrind writes the command line unescaped on its `cmd:` header: the lines it
    // spans (1 + the newlines in the arguments) and its first line, to know the started
    // program's profile by (ProfileRequest::cmd_lines).
    std::size_t cmd_lines = 1;
    std::string cmd_program;  // argv[0], the staged path
    // The started process's profile (Callgrind: its final dump; parts are .N) and log.
    std::filesystem::path out_file() const { return files.out_file(root_pid); }
    std::filesystem::path log_file() const { return files.log_file(root_pid); }
};

// The shared steps of a measurement. Every method may be called from several threads at once.
class Launcher {
  public:
    virtual ~Launcher() = default;

    virtual const MeasureSettings& settings() const = 0;

    // Runs the program of `spec` once as `request` says and sets the status of `result`
    // (a failed program, a timeout: a result with that status); runs the `spec.warmup` native
    // runs first when `attempt` (0-based) is 0. A program that cannot be run throws
    // UsageError, a tool that does not work EnvironmentError, Ctrl-C Interrupted.
    virtual Run launch(const BenchmarkSpec& spec, const LaunchRequest& request,
                       BenchmarkResult& result, int attempt) = 0;

    // The started process's profile (Callgrind: its final dump), read as `options` asks. A
    // malformed one throws EnvironmentError.
    virtual metrics::Profile profile(const Run& run, metrics::ProfileRequest options) const = 0;
    // Every dump part of the started process in dump order (Callgrind). Throws as profile().
    virtual std::vector<metrics::Profile> profile_parts(
        const Run& run, const metrics::ProfileRequest& options) const = 0;
    // The started process's log: its threads, notes and region markers.
    virtual valgrind::ProcessLog log(const Run& run) const = 0;
    // Every process the run traced, the started one first (process_tree.hpp).
    virtual std::vector<TracedProcess> processes(const Run& run) const = 0;
    // The profile of `process` of `run`. One cut short (the process was killed while it wrote
    // it) is nullopt when `cut_short_is_none`, else throws as profile().
    virtual std::optional<metrics::Profile> process_profile(const Run& run,
                                                            const TracedProcess& process,
                                                            metrics::ProfileRequest options,
                                                            bool cut_short_is_none) const = 0;

    // With --keep-raw: copies the run's files, and `extra`, next to each other as
    // NAME.<file name> with NAME from `spec.name` and `attempt` (replacing, never writing
    // through, what is there); a copy that fails is a warning on `result`, never the loss of
    // the measurement. Sets `result.raw_file`.
    void keep_raw(const BenchmarkSpec& spec, int attempt, const Run& run, BenchmarkResult& result,
                  const std::vector<std::filesystem::path>& extra = {}) const {
        keep_files(spec, attempt, run, result, extra);
    }

  private:
    // keep_raw() without a default argument: a default on a virtual is the static type's,
    // whatever the override says.
    virtual void keep_files(const BenchmarkSpec& spec, int attempt, const Run& run,
                            BenchmarkResult& result,
                            const std::vector<std::filesystem::path>& extra) const = 0;
};

// A result for `spec` before measuring with `tool` under `settings`: name, command, tool,
// weights, threshold and position.
BenchmarkResult start_result(const BenchmarkSpec& spec, valgrind::Tool tool,
                             const MeasureSettings& settings);

// Sets the events, derived hits, cost, top functions and lines of `result` from `profile`
// under `weights`, and drops the stderr tail (the run went well).
void score(const metrics::Profile& profile, const metrics::Weights& weights,
           BenchmarkResult& result);

}  // namespace cgbench::runner
