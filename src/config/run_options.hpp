#pragma once
// Options of `cgbench run`, from raw command-line input to a validated request. Validation
// happens here, before anything runs: a bad geometry fails in milliseconds, not after a
// ten-minute measurement.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/layered.hpp"
#include "exec/environment.hpp"
#include "report/reporter.hpp"
#include "runner/run_pipeline.hpp"

namespace cgbench::config {

// What the command line said, unvalidated (CLI11 fills this).
struct RunInput {
    std::vector<std::string> command;
    std::optional<std::string> name;
    std::optional<std::string> geometry;
    std::optional<std::string> weights;
    std::optional<std::string> cpu_baseline;
    std::optional<std::string> timeout;
    std::optional<std::string> format;
    std::optional<std::string> out;
    std::optional<std::string> keep_raw;
    std::optional<std::string> cwd;
    std::optional<std::string> stdin_path;
    std::vector<std::string> env;
    int verify = 1;
    bool branch_sim = false;
    bool show_output = false;
    bool regions = false;
};

// The layered settings of a run (for `config show` and the fingerprint).
struct RunSettings {
    Layered geometry = layered_default("ci-default");
    Layered weights = layered_default("pythonspeed");
    Layered cpu_baseline = layered_default("portable");
    Layered timeout = layered_default("");
    Layered format = layered_default("console");
};

struct RunPlan {
    runner::RunRequest request;
    RunSettings settings;
    report::Format format = report::Format::Console;
    std::optional<std::filesystem::path> out;
};

// Resolves the layers (default < CGBENCH_* in `env` < command line) and validates every
// value. Throws UsageError naming the option and the fix.
RunPlan plan_run(const RunInput& input, const exec::EnvMap& env);

}  // namespace cgbench::config
