#pragma once
// The suite file, `cgbench.toml` (DESIGN §4), read with toml++:
//
//   [defaults]                       # optional
//   geometry = "ci-default"          # run-wide: these four decide the fingerprint, so they
//   weights = "pythonspeed"          #   are set here (or by environment / command line),
//   cpu_baseline = "portable"        #   never per benchmark
//   branch_sim = false
//   region_tool = "auto"             # run-wide: cachegrind (Valgrind >= 3.22) or callgrind
//   fixed_clock = false              # run-wide: --fixed-clock, --fixed-random
//   fixed_random = false
//   threshold = "1%"                 # defaults for every [[bench]]
//   timeout = 600                    # seconds
//   env = { MODE = "fast" }          # or ["MODE=fast", "HOME"], like --env
//
//   [[bench]]
//   name = "parse/large"             # unique
//   command = ["./build/parse", "large.json"]
//   cwd = "data"                     # default: the suite file's directory
//   stdin = "input.txt"
//   env = { LEVEL = "3" }            # added to [defaults] env
//   threshold = "2%"
//   timeout = 30
//   regions = true                   # one result per marked region (see region_tool)
//   processes = "tree"               # or "main": which processes count (also in [defaults])
//   allow_child_crash = false        # a crashed child fails the benchmark (also [defaults])
//   max_processes = 1000             # processes it may start (also [defaults])
//   warmup = 1                       # native runs before measuring (also [defaults], [[gbench]])
//   verify = 3                       # runs that must repeat exactly when the benchmark is new
//                                    #   (also [defaults], [[gbench]])
//
//   [[gbench]]                       # a Google Benchmark binary: one result per benchmark
//   name = "parse"                   # optional, default: the binary's file name
//   binary = "./build/bench_parse"
//   filter = "BM_Parse"              # optional --benchmark_filter for listing
//   args = ["--size=large"]          # optional extra arguments
//   cwd, env, threshold, timeout     # as for [[bench]]
//
// Relative paths (command[0] when it holds a '/', cwd, stdin) are relative to the suite
// file's directory, so a suite reads the same wherever cgbench is started. Unknown keys,
// wrong types, bad values and duplicate names are a UsageError "FILE:LINE: ..." naming the
// key, raised before anything runs.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/environment.hpp"

namespace cgbench::config {

inline constexpr std::string_view kSuiteFileName = "cgbench.toml";

// A scalar setting as written in the file (numbers and booleans as text), and its line.
struct SuiteValue {
    std::string text;
    int line = 0;
};

// An `env` setting: requests in file order (a table is read in key order).
struct SuiteEnv {
    std::vector<exec::EnvRequest> requests;
    int line = 0;
};

// How a whole-program run treats the processes it starts ([defaults] and [[bench]]).
struct ProcessSettings {
    std::optional<SuiteValue> processes;          // "tree" | "main"
    std::optional<SuiteValue> allow_child_crash;  // "on" | "off"
    std::optional<SuiteValue> max_processes;      // a whole number >= 1
};

struct SuiteDefaults {
    std::optional<SuiteValue> geometry;
    std::optional<SuiteValue> weights;
    std::optional<SuiteValue> cpu_baseline;
    std::optional<SuiteValue> branch_sim;   // "on" | "off"
    std::optional<SuiteValue> region_tool;  // "auto" | "cachegrind" | "callgrind"
    std::optional<SuiteValue> fixed_clock;   // "on" | "off" (--fixed-clock)
    std::optional<SuiteValue> fixed_random;  // "on" | "off" (--fixed-random)
    std::optional<SuiteValue> threshold;
    std::optional<SuiteValue> timeout;
    std::optional<SuiteEnv> env;
    std::optional<SuiteValue> warmup;  // native runs before measuring, a whole number >= 0
    // Runs that must give the same counts the first time a benchmark appears (>= 1).
    std::optional<SuiteValue> verify;
    ProcessSettings process;
};

struct SuiteEntry {
    std::string name;
    int line = 0;                      // of its [[bench]] or [[gbench]] header
    std::vector<std::string> command;  // [[gbench]]: the binary, then its args
    bool gbench = false;               // a [[gbench]] entry
    std::optional<SuiteValue> filter;  // [[gbench]]: --benchmark_filter for listing
    std::optional<SuiteValue> cwd;
    std::optional<SuiteValue> stdin_path;
    std::optional<SuiteValue> threshold;
    std::optional<SuiteValue> timeout;
    std::optional<SuiteValue> regions;  // "on" | "off"
    std::optional<SuiteEnv> env;
    std::optional<SuiteValue> warmup;
    std::optional<SuiteValue> verify;
    ProcessSettings process;  // [[bench]] only
};

struct Suite {
    std::filesystem::path path;  // as the user named it (used in messages)
    std::filesystem::path dir;   // its directory, absolute
    SuiteDefaults defaults;
    std::vector<SuiteEntry> entries;  // [[bench]] and [[gbench]] entries, in file order

    // "cgbench.toml:12": where a setting came from, for messages and `config show`.
    std::string origin(int line) const;
};

// Parses suite text; `path` names the file in messages and anchors relative paths. Every
// value is validated (geometry, weights, CPU baseline, threshold, timeout, env names).
Suite parse_suite(std::string_view text, const std::filesystem::path& path);

// Reads and parses a suite file; UsageError when it cannot be read.
Suite load_suite(const std::filesystem::path& path);

// `cgbench.toml` when the current directory has one (auto-discovery), otherwise empty.
std::filesystem::path discover_suite();

// The keys a table of the suite file may hold: "defaults", "bench" or "gbench" (empty for
// another name). configs/cgbench.toml shows every one of them.
const std::vector<std::string_view>& known_suite_keys(std::string_view table);

}  // namespace cgbench::config
