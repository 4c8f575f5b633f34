#pragma once
// Running git: argv only, a fixed minimal environment (PATH, HOME, LC_ALL=C), a timeout.
// Used for the run's git facts and for resolving refs in `compare`.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/environment.hpp"
#include "exec/process.hpp"

namespace cgbench::exec {

class Git {
  public:
    // Git in `dir`, found on the PATH of `caller`; `runner` must outlive this object.
    Git(std::filesystem::path dir, const EnvMap& caller, ProcessRunner& runner);

    // False when no git binary is on PATH.
    bool available() const { return !binary_.empty(); }
    // Runs `git -C DIR ARGS...`; its trimmed stdout (the last `keep` bytes of it), or nullopt
    // when git is missing, fails or exits non-zero.
    std::optional<std::string> run(const std::vector<std::string>& args,
                                   std::size_t keep = kKeptOutput) const;
    static constexpr std::size_t kKeptOutput = 64 * 1024;
    // The commit each of `refs` names, as `rev-parse --verify --quiet REF^{commit}` finds it
    // (nullopt: none), from one git process (`cat-file --batch-check`, the names written to a
    // private temporary file as its stdin) rather than one each.
    std::vector<std::optional<std::string>> commits(const std::vector<std::string>& refs) const;
    // Runs `git -C DIR ARGS...`: its trimmed stdout; EnvironmentError saying what failed
    // (`what`) with git's own message when git is missing, fails or exits non-zero.
    std::string run_or_throw(const std::vector<std::string>& args, std::string_view what) const;
    // Runs `git -C DIR ARGS...` to its end even after SIGINT/SIGTERM (cleanup while
    // unwinding from one); never throws. False when git is missing, fails or exits non-zero.
    bool cleanup(const std::vector<std::string>& args) const noexcept;

  private:
    ProcessOutcome launch(const std::vector<std::string>& args, double timeout,
                          std::size_t keep = kKeptOutput, bool uninterruptible = false,
                          const std::string& stdin_path = {}) const;
    // commits(), one git process for all; nullopt when it could not be asked so.
    std::optional<std::vector<std::optional<std::string>>> commits_at_once(
        const std::vector<std::string>& refs) const;

    std::filesystem::path dir_;
    std::filesystem::path binary_;
    std::vector<std::string> env_;
    ProcessRunner& runner_;
};

}  // namespace cgbench::exec
