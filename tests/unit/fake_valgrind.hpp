#pragma once
// A fake Valgrind for the measurer's unit tests: it plays captured files (tests/data) back
// for the command lines the measurer builds, and records every call. (The real runner and
// the real Valgrind are exercised by tests/e2e.)

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "exec/process.hpp"
#include "runner/benchmark.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/callgrind_parser.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner::test {

namespace fs = std::filesystem;

// The pid every fake Valgrind run reports.
inline constexpr int kPid = 4242;

// A Valgrind file template with the pid filled in.
inline std::string with_pid(std::string path, int pid = kPid) {
    return path.replace(path.find("%p"), 2, std::to_string(pid));
}

// Where a path Valgrind was given lies on the host: in a sandboxed run the output directory
// is /cgbench/out (exec/sandbox.hpp).
inline std::string host_path(const exec::ProcessSpec& spec, std::string path) {
    const std::string inside(exec::kSandboxOut);
    if (spec.sandbox && path.starts_with(inside)) {
        path.replace(0, inside.size(), spec.sandbox->out_dir.string());
    }
    return path;
}

// Writes the log a traced process starts with, then `extra`.
inline void write_log(const exec::ProcessSpec& spec, int pid = kPid, const std::string& extra = {}) {
    for (const auto& a : spec.argv) {
        if (!util::starts_with(a, "--log-file=")) continue;
        const auto dashdash = std::find(spec.argv.begin(), spec.argv.end(), std::string("--"));
        std::vector<std::string> program(dashdash + 1, spec.argv.end());
        std::ofstream(with_pid(host_path(spec, a.substr(11)), pid))
            << fmt::format("=={0}== Command: {1}\n=={0}== Parent PID: 1\n", pid,
                           util::join(program, " "))
            << extra;
    }
}

// Plays Valgrind: writes `profile` to the --cachegrind-out-file path (and the log) and returns
// `outcome`. Native runs (the warm-up) are recorded in `native` and exit 0.
class FakeRunner final : public exec::ProcessRunner {
  public:
    std::function<std::string(int call)> profile;
    std::string callgrind_parts;  // captured run (tests/data/callgrind/NAME) to play for Callgrind
    // More lines for the log of each Valgrind call (region markers), after its header.
    std::function<std::string(int call)> log_extra;
    std::function<exec::ProcessOutcome(int call)> outcome = [](int) {
        return exec::ProcessOutcome{};
    };
    std::vector<exec::ProcessSpec> calls;
    std::vector<exec::ProcessSpec> native;

    exec::ProcessOutcome run(const exec::ProcessSpec& spec) override {
        if (spec.argv.front() != "/usr/bin/valgrind.bin") {
            native.push_back(spec);
            return exec::ProcessOutcome{};
        }
        calls.push_back(spec);
        const int call = static_cast<int>(calls.size()) - 1;
        if (profile || !callgrind_parts.empty()) write_log(spec, kPid, log_extra ? log_extra(call) : "");
        for (const auto& a : spec.argv) {
            if (util::starts_with(a, "--cachegrind-out-file=") && profile) {
                const std::string text = profile(call);
                if (!text.empty()) std::ofstream(with_pid(host_path(spec, a.substr(22)))) << text;
            }
            if (util::starts_with(a, "--callgrind-out-file=") && !callgrind_parts.empty()) {
                const fs::path dest = with_pid(host_path(spec, a.substr(21)));
                const fs::path source =
                    std::string(CGBENCH_TEST_DATA) + "/callgrind/" + callgrind_parts;
                for (const auto& file : valgrind::callgrind_part_files(source)) {
                    const auto suffix =
                        file.filename().string().substr(source.filename().string().size());
                    fs::copy_file(file, dest.string() + suffix);
                }
            }
        }
        auto o = outcome(call);
        o.pid = kPid;
        return o;
    }
};

inline std::string captured() {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/varint-cache.out");
}

inline valgrind::Installation fake_valgrind(std::string version = "3.19.0") {
    valgrind::Installation inst;
    inst.launcher = "/usr/bin/valgrind.bin";
    inst.version = std::move(version);
    return inst;
}

inline BenchmarkSpec workload_spec() {
    BenchmarkSpec spec;
    spec.name = "workload";
    spec.command = {std::string(CGBENCH_TEST_PROGRAMS) + "/workload", "100"};
    spec.warmup = 0;
    return spec;
}

inline exec::ProcessOutcome exited(int code, std::string err = {}) {
    exec::ProcessOutcome o;
    o.exit_code = code;
    o.stderr_tail = std::move(err);
    return o;
}

}  // namespace cgbench::runner::test
