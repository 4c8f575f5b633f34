#include "exec/git.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "util/strings.hpp"

namespace cgbench::exec {

Git::Git(std::filesystem::path dir, const EnvMap& caller, ProcessRunner& runner)
    : dir_(std::move(dir)), runner_(runner) {
    const auto path_it = caller.find("PATH");
    binary_ = search_path("git", path_it != caller.end() ? path_it->second : "/usr/bin:/bin");
    for (const char* keep : {"PATH", "HOME"}) {
        if (const auto it = caller.find(keep); it != caller.end()) {
            env_.push_back(std::string(keep) + "=" + it->second);
        }
    }
    env_.push_back("LC_ALL=C");
}

ProcessOutcome Git::launch(const std::vector<std::string>& args, double timeout, std::size_t keep,
                           bool uninterruptible) const {
    ProcessSpec spec;
    spec.argv = {binary_.string(), "-C", dir_.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.env = env_;
    spec.disable_aslr = false;
    spec.timeout_seconds = timeout;
    spec.tail_bytes = keep;
    spec.uninterruptible = uninterruptible;
    return runner_.run(spec);
}

std::optional<std::string> Git::run(const std::vector<std::string>& args, std::size_t keep) const {
    if (binary_.empty()) return std::nullopt;
    const auto out = launch(args, 30, keep);
    if (out.how != Termination::Exited || out.exit_code != 0) return std::nullopt;
    return std::string(util::trim(out.stdout_tail));
}

bool Git::cleanup(const std::vector<std::string>& args) const noexcept {
    if (binary_.empty()) return false;
    try {
        const auto out = launch(args, 60, kKeptOutput, true);
        return out.how == Termination::Exited && out.exit_code == 0;
    } catch (...) {  // no process could be started: nothing to clean up with
        return false;
    }
}

std::string Git::run_or_throw(const std::vector<std::string>& args, std::string_view what) const {
    if (binary_.empty()) {
        throw EnvironmentError(fmt::format("cannot {}: git is not on PATH", what),
                               "install git (apt-get install git)");
    }
    const auto out = launch(args, 600);  // a checkout of a large tree takes its time
    if (out.how != Termination::Exited || out.exit_code != 0) {
        const auto message = util::trim(out.stderr_tail);
        throw EnvironmentError(
            fmt::format("cannot {}: git {} failed: {}", what, args.front(),
                        message.empty() ? "no message" : util::printable(message)));
    }
    return std::string(util::trim(out.stdout_tail));
}

}  // namespace cgbench::exec
