#pragma once
// Measures one benchmark once: resolve and stage the program, build its environment, run it
// under Valgrind (Cachegrind, or Callgrind for Google Benchmark and for regions below
// Valgrind 3.22), parse the profile, score it.

#include <fmt/format.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "exec/program.hpp"
#include "runner/benchmark.hpp"
#include "runner/process_tree.hpp"
#include "runner/regions.hpp"
#include "valgrind/command.hpp"
#include "valgrind/installation.hpp"
#include "valgrind/process_log.hpp"
#include "valgrind/profile.hpp"
#include "valgrind/profile_builder.hpp"

namespace cgbench::runner {

// Facts observed while measuring that belong in the run's fingerprint. They are combined
// over all measurements so that the order in which parallel runs finish cannot change them.
struct MeasureFacts {
    int aslr_errno = 0;               // errno of a refused personality(), 0 if always disabled
    std::size_t env_block_bytes = 0;  // the largest argv+environment block measured
    // Loader and glibc variables set with --env (LD_PRELOAD=..., GLIBC_TUNABLES=...), sorted.
    std::vector<std::string> loader_env;
};

// The Valgrind options of `tool` under `settings`.
valgrind::ToolOptions tool_options(const MeasureSettings& settings, valgrind::Tool tool);

// Throws EnvironmentError when /tmp, where Valgrind keeps its temporary files, is not
// writable or (nearly) full: Valgrind's truncated or missing profile is then explained by
// that, not by Valgrind.
void throw_if_tmp_full();

// Parses a profile Valgrind wrote; a malformed one means Valgrind misbehaved (EnvironmentError).
template <typename Parse>
auto parse_output(Parse&& parse) {
    try {
        return parse();
    } catch (const valgrind::ParseError& e) {
        throw_if_tmp_full();
        throw EnvironmentError(fmt::format("valgrind wrote an unreadable profile: {}", e.what()));
    }
}

// One Measurer serves a whole run. measure() may be called from several threads at once when
// the ProcessRunner allows it (PosixProcessRunner does); the facts are guarded by a mutex.
class Measurer {
  public:
    Measurer(valgrind::Installation inst, MeasureSettings settings, exec::ProcessRunner& runner,
             exec::EnvMap caller);

    // Measures `spec` once under Cachegrind. Failures of the program (exit status, signal,
    // timeout) come back as a result with that status; a program that cannot be run throws
    // UsageError, a Valgrind that does not work throws EnvironmentError, Ctrl-C throws
    // Interrupted. `attempt` (0-based) distinguishes kept raw files of repeated runs.
    BenchmarkResult measure(const BenchmarkSpec& spec, int attempt = 0);

    // Measures the regions of `spec` once under Callgrind: one result per region, named
    // SPEC/REGION, in order of first appearance. A failed program, no region reached, or
    // markers that do not nest give one failed result named after `spec`. Throws as measure().
    std::vector<BenchmarkResult> measure_regions_callgrind(const BenchmarkSpec& spec,
                                                           int attempt = 0);

    // The same under Cachegrind (Valgrind >= 3.22, measurer_regions.cpp): one run per region
    // name, each instrumenting only that region; the first measures the first region begun
    // and logs the markers of the others (a run that only logs markers follows when regions
    // nest inside the first).
    // A program whose log holds no marker (built against an older <cgbench/cgbench.h>, or
    // marking no region) is measured with measure_regions_callgrind(), with a warning when
    // it does have regions. A region run that fails, or does not reach its region, gives
    // one failed result named after `spec`.
    std::vector<BenchmarkResult> measure_regions_cachegrind(const BenchmarkSpec& spec,
                                                            int attempt = 0);

    // Measures the Google Benchmark benchmark of `spec` (`spec.gbench` set and listed) once
    // under Callgrind: one result whose events and cost are per iteration of its measured
    // loop, in the last of three repetitions. A benchmark that fails, calls SkipWithError or
    // has no measured loop gives a failed result saying why. Throws as measure().
    BenchmarkResult measure_gbench(const BenchmarkSpec& spec, int attempt = 0);

    // `spec` measured by the strategy of its kind (measurement.hpp): measure(),
    // measure_regions_cachegrind() or measure_regions_callgrind(), or measure_gbench().
    std::vector<BenchmarkResult> measure_all(const BenchmarkSpec& spec, int attempt = 0);

    // Checks, without running anything, that `spec` can be run: its working directory and
    // stdin file exist and its program resolves to an executable. Throws UsageError otherwise.
    void check(const BenchmarkSpec& spec) const;

    // The program `spec` runs, resolved as check() resolves it (absolute path).
    std::filesystem::path program_path(const BenchmarkSpec& spec) const;

    // The environment the program would get, for the glibc probe.
    std::vector<std::string> probe_environment(const BenchmarkSpec& spec) const;

    // The steps a measurement is made of, for the strategies outside this class
    // (runner/call_stacks.cpp). Where Valgrind wrote its output for one run, and how it went.
    struct RawOutput {
        valgrind::OutputFiles files;
        int root_pid = 0;  // the started process (and what it exec'd into)
        std::size_t max_processes = 0;
        CommandNames names;
        exec::ProcessOutcome outcome;
        // Cachegrind writes the command line unescaped on its `cmd:` header: the lines it
        // spans (1 + the newlines in the arguments) and its first line, to know the started
        // program's profile by (ParseOptions::cmd_lines).
        std::size_t cmd_lines = 1;
        std::string cmd_program;  // argv[0], the staged path
        // The started process's profile (Callgrind: its final dump; parts are .N) and log.
        std::filesystem::path out_file() const { return files.out_file(root_pid); }
        std::filesystem::path log_file() const { return files.log_file(root_pid); }
    };

    // A result for `spec` before measuring: name, command, tool, weights.
    BenchmarkResult start_result(const BenchmarkSpec& spec, valgrind::Tool tool) const;
    // Stages `spec` in `staging`, runs it under `tool` and sets the status of `result`.
    // `extra_args` follow the program's own arguments.
    // Runs the `spec.warmup` native runs first when `attempt` is 0.
    RawOutput launch(const BenchmarkSpec& spec, const valgrind::ToolOptions& options,
                     const std::vector<std::string>& extra_args,
                     const std::filesystem::path& staging, BenchmarkResult& result, int attempt);

    // The facts of every measurement so far (a copy, safe while others still measure).
    MeasureFacts facts() const;
    const MeasureSettings& settings() const { return settings_; }
    const valgrind::Installation& installation() const { return inst_; }

  private:
    // One Cachegrind run of `spec` for its regions: CGBENCH_REGION set to `region` ("": the
    // first region begun; "\n": none, only the markers); the native warm-up only when
    // `warm_up`.
    RawOutput launch_region(const BenchmarkSpec& spec, const std::string& region, bool warm_up,
                            const std::filesystem::path& staging, BenchmarkResult& result,
                            int attempt);
    // Cachegrind regions (measurer_regions.cpp): the first run, which measures the first
    // region begun into `first` and reads the markers into `log`; false when it failed.
    bool first_region_run(const BenchmarkSpec& spec, int attempt, BenchmarkResult& first,
                          valgrind::ProcessLog& log);
    // A run that measures nothing and logs every marker into `log`; false (and `result`
    // failed) when it failed.
    bool marker_run(const BenchmarkSpec& spec, int attempt, BenchmarkResult& result,
                    valgrind::ProcessLog& log);
    // The run of `region` alone, its result made from `first`'s.
    BenchmarkResult region_run(const BenchmarkSpec& spec, const BenchmarkResult& first,
                               const RegionCost& region, int attempt);
    // Scores a Cachegrind region run's profile (the started process's) into `result`.
    void score_region_run(const RawOutput& raw, BenchmarkResult& result) const;
    // Regions of a program that wrote no marker under Cachegrind: measured with Callgrind,
    // and warned about when it has regions (an older header).
    std::vector<BenchmarkResult> measure_regions_unmarked(const BenchmarkSpec& spec, int attempt);
    // The working directory and resolved program of `spec` (see check()).
    std::pair<std::filesystem::path, exec::ResolvedProgram> locate(const BenchmarkSpec& spec) const;
    // The native warm-up runs; false (and `result` timed out or failed) when one timed out.
    bool warm_up(const BenchmarkSpec& spec, const exec::ProcessSpec& native,
                 BenchmarkResult& result);
    void interpret(const RawOutput& raw, std::optional<double> limit,
                   BenchmarkResult& result) const;
    // The started process left no profile: Valgrind's complaint, or what its log says.
    void no_profile(const RawOutput& raw, BenchmarkResult& result) const;
    // Whole programs: every process's profile into `result` (measurer_processes.cpp).
    void score_processes(const BenchmarkSpec& spec, const RawOutput& raw,
                         BenchmarkResult& result) const;
    void record_facts(int aslr_errno, std::size_t env_block_bytes,
                      const std::vector<exec::EnvRequest>& env);
    // Sets events, derived hits, cost and top functions of `result` from `profile`.
    void score(const valgrind::Profile& profile, BenchmarkResult& result) const;
    // With --keep-raw: copies Valgrind's files of `raw` and `extra` as NAME.<file name>
    // (replacing, never writing through, what is there); a copy that fails is a warning on
    // `result`, never the loss of the measurement.
    void keep_raw(const BenchmarkSpec& spec, int attempt, const RawOutput& raw,
                  BenchmarkResult& result,
                  const std::vector<std::filesystem::path>& extra = {}) const;
    // Valgrind's notes about the program's processes, for an error message ("" when none).
    std::string valgrind_notes(const RawOutput& raw) const;

    valgrind::Installation inst_;
    MeasureSettings settings_;
    exec::ProcessRunner& runner_;
    exec::EnvMap caller_;
    mutable std::mutex facts_mutex_;
    MeasureFacts facts_;
};

}  // namespace cgbench::runner
