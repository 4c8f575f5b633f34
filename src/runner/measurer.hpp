#pragma once
// Measures one benchmark once: resolve and stage the program, build its environment, run it
// under Cachegrind, parse the profile, score it.

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/program.hpp"
#include "exec/process.hpp"
#include "runner/benchmark.hpp"
#include "valgrind/installation.hpp"
#include "valgrind/profile.hpp"

namespace cgbench::runner {

// Facts observed while measuring that belong in the run's fingerprint.
struct MeasureFacts {
    int aslr_errno = 0;              // last refusal of personality(), 0 if ASLR was disabled
    std::size_t env_block_bytes = 0;
};

class Measurer {
public:
    Measurer(valgrind::Installation inst, MeasureSettings settings, exec::ProcessRunner& runner,
             exec::EnvMap caller);

    // Measures `spec` once. Failures of the program (exit status, signal, timeout) come back
    // as a result with that status; a program that cannot be run throws UsageError, a
    // Valgrind that does not work throws EnvironmentError, Ctrl-C throws Interrupted.
    // `attempt` (0-based) distinguishes kept raw files of repeated runs.
    BenchmarkResult measure(const BenchmarkSpec& spec, int attempt = 0);

    // Checks, without running anything, that `spec` can be run: its working directory exists
    // and its program resolves to an executable. Throws UsageError otherwise.
    void check(const BenchmarkSpec& spec) const;

    // The environment the program would get, for the glibc probe.
    std::vector<std::string> probe_environment(const BenchmarkSpec& spec) const;

    const MeasureFacts& facts() const { return facts_; }
    const MeasureSettings& settings() const { return settings_; }
    const valgrind::Installation& installation() const { return inst_; }
    // Behaviour options passed to Valgrind (for the fingerprint).
    std::vector<std::string> behaviour_args() const;

private:
    // The working directory and resolved program of `spec` (see check()).
    std::pair<std::filesystem::path, exec::ResolvedProgram> locate(const BenchmarkSpec& spec) const;
    void interpret(const exec::ProcessOutcome& outcome, const std::filesystem::path& out_file,
                   const std::filesystem::path& log_file, BenchmarkResult& result) const;
    void keep_raw(const BenchmarkSpec& spec, int attempt, const std::filesystem::path& out_file,
                  const std::filesystem::path& log_file, BenchmarkResult& result) const;

    valgrind::Installation inst_;
    MeasureSettings settings_;
    exec::ProcessRunner& runner_;
    exec::EnvMap caller_;
    MeasureFacts facts_;
};

}  // namespace cgbench::runner
