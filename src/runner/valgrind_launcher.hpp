#pragma once
// The Launcher (launcher.hpp) that runs programs under Valgrind: resolve and stage the
// program, build its environment, warm it up natively, run it under the tool a strategy asks
// for, interpret how it ended, and read Valgrind's files with the parsers of valgrind/.

#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "exec/program.hpp"
#include "runner/launcher.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::exec {
class RunSandbox;
}  // namespace cgbench::exec

namespace cgbench::runner {

// Facts observed while measuring that belong in the run's fingerprint. They are combined
// over all measurements so that the order in which parallel runs finish cannot change them.
struct MeasureFacts {
    int aslr_errno = 0;               // errno of a refused personality(), 0 if always disabled
    std::size_t env_block_bytes = 0;  // the largest argv+environment block measured
    // Loader and glibc variables set with --env (LD_PRELOAD=..., GLIBC_TUNABLES=...), sorted.
    std::vector<std::string> loader_env;
};

// Throws EnvironmentError when /tmp, where Valgrind keeps its temporary files, is not
// writable or (nearly) full: Valgrind's truncated or missing profile is then explained by
// that, not by Valgrind.
void throw_if_tmp_full();

// One ValgrindLauncher serves a whole run; launch() may be called from several threads at
// once when the ProcessRunner allows it (PosixProcessRunner does); the facts are guarded.
class ValgrindLauncher final : public Launcher {
  public:
    ValgrindLauncher(valgrind::Installation inst, MeasureSettings settings,
                     exec::ProcessRunner& runner, exec::EnvMap caller);

    const MeasureSettings& settings() const override { return settings_; }
    const valgrind::Installation& installation() const { return inst_; }

    Run launch(const BenchmarkSpec& spec, const LaunchRequest& request, BenchmarkResult& result,
               int attempt) override;
    metrics::Profile profile(const Run& run, metrics::ProfileRequest options) const override;
    std::vector<metrics::Profile> profile_parts(
        const Run& run, const metrics::ProfileRequest& options) const override;
    valgrind::ProcessLog log(const Run& run) const override;
    std::vector<TracedProcess> processes(const Run& run) const override;
    std::optional<metrics::Profile> process_profile(const Run& run, const TracedProcess& process,
                                                    metrics::ProfileRequest options,
                                                    bool cut_short_is_none) const override;

    // Checks, without running anything, that `spec` can be run: its working directory and
    // stdin file exist and its program resolves to an executable. Throws UsageError otherwise.
    void check(const BenchmarkSpec& spec) const;
    // The program `spec` runs, resolved as check() resolves it (absolute path).
    std::filesystem::path program_path(const BenchmarkSpec& spec) const;
    // The environment the program would get, for the glibc probe.
    std::vector<std::string> probe_environment(const BenchmarkSpec& spec) const;
    // The facts of every launch so far (a copy, safe while others still measure).
    MeasureFacts facts() const;

  private:
    void keep_files(const BenchmarkSpec& spec, int attempt, const Run& run, BenchmarkResult& result,
                    const std::vector<std::filesystem::path>& extra) const override;
    // The working directory and resolved program of `spec` (see check()).
    std::pair<std::filesystem::path, exec::ResolvedProgram> locate(const BenchmarkSpec& spec) const;
    // The environment of `argv` in `sandbox`; a block over the budget is a warning on `result`.
    exec::BuiltEnvironment environment(const BenchmarkSpec& spec, const exec::RunSandbox& sandbox,
                                       const std::vector<std::string>& argv,
                                       BenchmarkResult& result) const;
    // The native warm-up runs; false (and `result` timed out or failed) when one timed out.
    bool warm_up(const BenchmarkSpec& spec, const exec::ProcessSpec& native,
                 BenchmarkResult& result);
    // Sets the status of `result` from how `run` ended (launch_status.cpp). `limit`: the
    // timeout, which a timeout's message names (not the wall time, a little longer).
    void interpret(const Run& run, std::optional<double> limit, BenchmarkResult& result) const;
    // The rest of interpret() for a run that exited: its exit status, or no profile.
    void interpret_exit(const Run& run, BenchmarkResult& result) const;
    // The started process left no profile: Valgrind's complaint, or what its log says.
    void no_profile(const Run& run, BenchmarkResult& result) const;
    void record_facts(int aslr_errno, std::size_t env_block_bytes,
                      const std::vector<exec::EnvRequest>& env);

    valgrind::Installation inst_;
    MeasureSettings settings_;
    exec::ProcessRunner& runner_;
    exec::EnvMap caller_;
    mutable std::mutex facts_mutex_;
    MeasureFacts facts_;
};

}  // namespace cgbench::runner
