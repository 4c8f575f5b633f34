#pragma once
// The error hierarchy: leaves throw one of these, the single top-level catch in the CLI maps
// it to the documented exit code. Every message names the cause; `hint` names the remedy.

#include <stdexcept>
#include <string>

namespace cgbench {

// Exit codes are part of the command-line contract (docs/reference/exit-codes.md, --help).
enum class ExitCode : int {
    kOk = 0,           // success, no regression
    kRegression = 1,   // a comparison found a regression over threshold
    kUsage = 2,        // bad usage, configuration or input
    kBenchmark = 3,    // a benchmark failed: non-zero exit, signal, timeout, unstable
    kEnvironment = 4,  // valgrind missing/unusable, database problems, I/O of our own files
    kInterrupted = 130,  // SIGINT (Ctrl-C); a signal N exits 128 + N, as a shell reports it
};

// Base of everything cgbench throws on purpose.
class Error : public std::runtime_error {
  public:
    Error(ExitCode code, std::string message, std::string hint = {})
        : std::runtime_error(std::move(message)), code_(code), hint_(std::move(hint)) {}
    ExitCode code() const noexcept { return code_; }
    // What the user can do about it; may be empty.
    const std::string& hint() const noexcept { return hint_; }

  private:
    ExitCode code_;
    std::string hint_;
};

// Bad command line, configuration or input file (exit 2).
class UsageError : public Error {
  public:
    explicit UsageError(std::string message, std::string hint = {})
        : Error(ExitCode::kUsage, std::move(message), std::move(hint)) {}
};

// The measured program failed, crashed, timed out or was not repeatable (exit 3).
class BenchmarkError : public Error {
  public:
    explicit BenchmarkError(std::string message, std::string hint = {})
        : Error(ExitCode::kBenchmark, std::move(message), std::move(hint)) {}
};

// The tools or files cgbench depends on are missing or unusable (exit 4).
class EnvironmentError : public Error {
  public:
    explicit EnvironmentError(std::string message, std::string hint = {})
        : Error(ExitCode::kEnvironment, std::move(message), std::move(hint)) {}
};

// The user pressed Ctrl-C or cgbench got SIGTERM/SIGHUP; nothing partial was written. Exits
// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
class Interrupted : public Error {
  public:
    explicit Interrupted(int signo)
        : Error(static_cast<ExitCode>(128 + signo),
                "interrupted by signal " + std::to_string(signo)),
          signo_(signo) {}
    int signo() const noexcept { return signo_; }

  private:
    int signo_;
};

}  // namespace cgbench
