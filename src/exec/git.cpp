#include "exec/git.hpp"

#include "util/strings.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::exec {

Git::Git(std::filesystem::path dir, const EnvMap& caller, ProcessRunner& runner)
    : dir_(std::move(dir)), runner_(runner) {
    const auto path_it = caller.find("PATH");
    binary_ =
        valgrind::search_path("git", path_it != caller.end() ? path_it->second : "/usr/bin:/bin");
    for (const char* keep : {"PATH", "HOME"}) {
        if (const auto it = caller.find(keep); it != caller.end()) {
            env_.push_back(std::string(keep) + "=" + it->second);
        }
    }
    env_.push_back("LC_ALL=C");
}

std::optional<std::string> Git::run(const std::vector<std::string>& args) const {
    if (binary_.empty()) return std::nullopt;
    ProcessSpec spec;
    spec.argv = {binary_.string(), "-C", dir_.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.env = env_;
    spec.disable_aslr = false;
    spec.timeout_seconds = 30;
    const auto out = runner_.run(spec);
    if (out.how != Termination::Exited || out.exit_code != 0) return std::nullopt;
    return std::string(util::trim(out.stdout_tail));
}

}  // namespace cgbench::exec
