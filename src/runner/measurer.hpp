#pragma once
// Measures one benchmark once: the strategy of its kind (measurement.hpp) run with the
// Valgrind launcher (valgrind_launcher.hpp), which resolves and stages the program, builds
// its environment and runs it under Valgrind; the strategy parses and scores what it wrote.

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "runner/benchmark.hpp"
#include "runner/call_stacks.hpp"
#include "runner/launcher.hpp"
#include "runner/regions.hpp"
#include "runner/valgrind_launcher.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

// One Measurer serves a whole run. measure() may be called from several threads at once when
// the ProcessRunner allows it (PosixProcessRunner does); the facts are guarded by a mutex.
class Measurer {
  public:
    Measurer(valgrind::Installation inst, MeasureSettings settings, exec::ProcessRunner& runner,
             exec::EnvMap caller);

    // Measures `spec` once as a whole program under Cachegrind (WholeProgram). Failures of the
    // program (exit status, signal, timeout) come back as a result with that status; a program
    // that cannot be run throws UsageError, a Valgrind that does not work throws
    // EnvironmentError, Ctrl-C throws Interrupted. `attempt` (0-based) distinguishes kept raw
    // files of repeated runs.
    BenchmarkResult measure(const BenchmarkSpec& spec, int attempt = 0);

    // `spec` measured by the strategy of its kind (measurement_for): one result, or one per
    // region. Throws as measure().
    std::vector<BenchmarkResult> measure_all(const BenchmarkSpec& spec, int attempt = 0);

    // Checks, without running anything, that `spec` can be run: its working directory and
    // stdin file exist and its program resolves to an executable. Throws UsageError otherwise.
    void check(const BenchmarkSpec& spec) const { launcher_.check(spec); }

    // The program `spec` runs, resolved as check() resolves it (absolute path).
    std::filesystem::path program_path(const BenchmarkSpec& spec) const {
        return launcher_.program_path(spec);
    }

    // The environment the program would get, for the glibc probe.
    std::vector<std::string> probe_environment(const BenchmarkSpec& spec) const {
        return launcher_.probe_environment(spec);
    }

    // The shared steps, for a strategy not chosen by a spec's kind (call_stacks.hpp).
    Launcher& launcher() { return launcher_; }

    // The facts of every measurement so far (a copy, safe while others still measure).
    MeasureFacts facts() const { return launcher_.facts(); }
    const MeasureSettings& settings() const { return launcher_.settings(); }
    const valgrind::Installation& installation() const { return launcher_.installation(); }

  private:
    ValgrindLauncher launcher_;
};

// CallGraph().measure_tree() (call_stacks.hpp) with the launcher of `measurer`.
CallProfile measure_call_tree(Measurer& measurer, const BenchmarkSpec& spec);

}  // namespace cgbench::runner
