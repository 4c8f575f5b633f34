#include "exec/git.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <system_error>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "util/strings.hpp"

namespace cgbench::exec {

namespace {

// `text` in a new file of the temporary directory that only this user can read (mkstemp:
// mode 0600, a name no one else holds), removed with this object.
class PrivateFile {
  public:
    explicit PrivateFile(std::string_view text) {
        std::error_code ec;
        const auto dir = std::filesystem::temp_directory_path(ec);
        if (ec) return;
        path_ = (dir / "cgbench-git.XXXXXX").string();
        const int fd = ::mkstemp(path_.data());
        if (fd < 0) {
            path_.clear();
            return;
        }
        written_ = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        ::close(fd);
    }
    PrivateFile(const PrivateFile&) = delete;
    PrivateFile& operator=(const PrivateFile&) = delete;
    ~PrivateFile() {
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    bool written() const { return written_; }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    bool written_ = false;
};

}  // namespace

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
                           bool uninterruptible, const std::string& stdin_path) const {
    ProcessSpec spec;
    spec.argv = {binary_.string(), "-C", dir_.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.env = env_;
    spec.disable_aslr = false;
    spec.timeout_seconds = timeout;
    spec.tail_bytes = keep;
    spec.uninterruptible = uninterruptible;
    spec.stdin_path = stdin_path;
    return runner_.run(spec);
}

std::optional<std::string> Git::run(const std::vector<std::string>& args, std::size_t keep) const {
    if (binary_.empty()) return std::nullopt;
    const auto out = launch(args, 30, keep);
    if (out.how != Termination::Exited || out.exit_code != 0) return std::nullopt;
    return std::string(util::trim(out.stdout_tail));
}

std::vector<std::optional<std::string>> Git::commits(const std::vector<std::string>& refs) const {
    if (refs.size() > 1) {
        if (auto all = commits_at_once(refs)) return std::move(*all);
    }
    std::vector<std::optional<std::string>> out;
    for (const auto& ref : refs)
        out.push_back(
            run({"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"}));
    return out;
}

std::optional<std::vector<std::optional<std::string>>> Git::commits_at_once(
    const std::vector<std::string>& refs) const {
    if (binary_.empty()) return std::nullopt;
    std::string input;
    for (const auto& ref : refs) {
        if (ref.empty() || ref.find_first_of("\n\r") != std::string::npos) return std::nullopt;
        input += ref + "^{commit}\n";
    }
    const PrivateFile file(input);
    if (!file.written()) return std::nullopt;
    const auto done = launch({"cat-file", "--batch-check=%(objectname) %(objecttype)"}, 30,
                             kKeptOutput, false, file.path());
    if (done.how != Termination::Exited || done.exit_code != 0) return std::nullopt;
    const auto lines = util::split(util::trim(done.stdout_tail), '\n');
    if (lines.size() != refs.size()) return std::nullopt;
    std::vector<std::optional<std::string>> out;
    for (const auto line : lines) {
        constexpr std::string_view kCommit = " commit";
        if (line.ends_with(kCommit)) {
            out.emplace_back(line.substr(0, line.size() - kCommit.size()));
        } else {
            out.emplace_back();  // "NAME missing", "NAME ambiguous", another type
        }
    }
    return out;
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
