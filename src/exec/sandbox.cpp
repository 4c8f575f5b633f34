#include "exec/sandbox.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>

#include "base/errors.hpp"
#include "exec/fixed_inputs.hpp"
#include "exec/interrupt.hpp"
#include "exec/process_io.hpp"
#include "exec/sandbox_setup.hpp"
#include "exec/staging.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

// What the probe's child reports.
struct ProbeReport {
    int err = -1;
    bool own_proc = false;
    char step[160] = {};
};

// How long the probe's setup may take (it takes milliseconds).
constexpr std::chrono::seconds kProbeLimit{5};

// Reads the probe's report into `r`, waiting at most kProbeLimit and not past a Ctrl-C;
// false when none came.
bool await_report(int fd, ProbeReport& r) {
    using ProbeClock = std::chrono::steady_clock;
    const auto until = ProbeClock::now() + kProbeLimit;
    for (auto now = ProbeClock::now(); now < until && interrupt_signal() == 0;
         now = ProbeClock::now()) {
        pollfd p[2] = {{fd, POLLIN, 0}, {interrupt_fd(), POLLIN, 0}};
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - now);
        if (::poll(p, p[1].fd >= 0 ? 2 : 1, static_cast<int>(ms.count()) + 1) <= 0) continue;
        if (p[0].revents == 0) continue;
        ssize_t n = 0;
        while ((n = ::read(fd, &r, sizeof r)) < 0 && errno == EINTR) {
        }
        return n == static_cast<ssize_t>(sizeof r);
    }
    return false;
}

// Reaps the probe's child; one killed while stuck in the kernel gets a second, then is left.
void reap(pid_t child, bool ended) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (pid_t r = 0; r == 0 || (r < 0 && errno == EINTR);) {
        r = ::waitpid(child, nullptr, ended ? 0 : WNOHANG);
        if (r == 0 && std::chrono::steady_clock::now() >= until) return;
        if (r == 0) ::poll(nullptr, 0, 20);
    }
}

// Sets a sandbox up in a child that then exits: what every run will do, short of running.
// Bounded (kProbeLimit, Ctrl-C: Interrupted), like every wait for a run.
Isolation probe() {
    Isolation out;
    Pipe sync, report;
    const pid_t child = clone_sandboxed();
    if (child < 0) {
        out.refused = fmt::format("creating namespaces: {}", std::strerror(errno));
        return out;
    }
    if (child == 0) {
        SandboxSetup setup;
        setup.sync_fd = sync.read.get();
        const char* step = "";
        ProbeReport r;
        r.err = enter_sandbox(setup, &step, &r.own_proc);
        for (std::size_t i = 0; i + 1 < sizeof r.step && step[i] != '\0'; ++i)
            r.step[i] = step[i];
        [[maybe_unused]] const ssize_t n = ::write(report.write.get(), &r, sizeof r);
        ::_exit(0);
    }
    sync.read.reset();
    report.write.reset();
    const bool mapped = write_id_maps(child);
    const int map_err = errno;
    [[maybe_unused]] const ssize_t w = ::write(sync.write.get(), mapped ? "M" : "X", 1);
    ProbeReport r;
    const bool reported = await_report(report.read.get(), r);
    if (!reported) ::kill(child, SIGKILL);  // pid 1 of its namespace: all of it goes
    reap(child, reported);
    throw_if_interrupted();
    if (!reported) {
        out.refused = fmt::format(
            "setting them up did not finish within {} s, as on a hung file system or under a "
            "seccomp supervisor that holds a system call",
            kProbeLimit.count());
    } else if (!mapped) {
        out.refused = fmt::format("writing the uid/gid map: {}", std::strerror(map_err));
    } else if (r.err != 0) {
        out.refused = fmt::format("{}: {}", r.step, r.err > 0 ? std::strerror(r.err) : "failed");
    } else {
        out.namespaces = true;
        out.own_proc = r.own_proc;
    }
    return out;
}

// The fixed-inputs library in the private staging directory, for runs without namespaces.
const fs::path& staged_library() {
    static const fs::path path = [] {
        const fs::path p = staging_root() / "libcgbench-fixed.so";
        const std::string_view bytes = fixed_inputs_library();
        const fs::path tmp = p.string() + ".new";
        std::FILE* f = std::fopen(tmp.c_str(), "wbx");
        if (f == nullptr && errno == EEXIST) {
            ::unlink(tmp.c_str());
            f = std::fopen(tmp.c_str(), "wbx");
        }
        const bool ok =
            f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        if (f != nullptr) std::fclose(f);
        if (!ok || ::chmod(tmp.c_str(), 0555) != 0 || ::rename(tmp.c_str(), p.c_str()) != 0) {
            throw EnvironmentError(
                fmt::format("cannot write {}: {}", p.string(), std::strerror(errno)));
        }
        return p;
    }();
    return path;
}

bool within(const fs::path& path, const fs::path& dir) {
    const auto rel = path.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::string Isolation::describe() const {
    if (namespaces) {
        return own_proc ? "namespaces (uid 0, pid 2, /cgbench)"
                        : "namespaces (uid 0, pid 2, /cgbench; the host's /proc)";
    }
    return fmt::format("none (staged under {})", staging_root().string());
}

std::string Isolation::warning() const {
    if (namespaces) return {};
    return fmt::format(
        "cannot run the program in namespaces of its own ({}): the working directory, the "
        "user (uid and passwd entry), the pid and the host name reach the program, and so the "
        "counts of programs that read them; programs are staged under {} (allow unprivileged "
        "user namespaces to pin them: docs/sandbox.md)",
        refused, staging_root().string());
}

const Isolation& isolation() {
    static const Isolation i = probe();
    return i;
}

std::string FixedInputs::describe() const {
    if (clock && random) return "clock, random";
    return clock ? "clock" : random ? "random" : "";
}

fs::path project_tree(const fs::path& cwd) {
    std::error_code ec;
    const fs::path start = fs::canonical(cwd, ec);
    if (ec) return cwd;
    for (fs::path dir = start;; dir = dir.parent_path()) {
        if (fs::exists(dir / ".git", ec)) return dir;
        if (dir == dir.root_path() || dir.empty()) break;
    }
    return start;
}

std::string sandbox_program_name(std::string_view parent) {
    const std::size_t used = parent.empty() ? 0 : parent.size() + 1;
    const std::size_t length = used < kStagedDirChars ? kStagedDirChars - used : 1;
    std::string name = std::string("program").substr(0, std::min<std::size_t>(length, 7));
    name.append(length - name.size(), '_');
    return name;
}

RunSandbox::RunSandbox(const ResolvedProgram& program, const fs::path& cwd, const fs::path& out_dir,
                       FixedInputs fixed)
    : host_cwd_(cwd), fixed_(fixed) {
    if (!isolation().namespaces) {
        staged_.emplace(program);
        program_path_ = staged_->path();
        link_ = staged_->link();
        cwd_ = cwd.string();
        return;
    }
    const fs::path dir = fs::canonical(program.path.parent_path());
    const fs::path target = link_target(program);
    const std::string parent = target == dir ? std::string() : dir.filename().string();
    SandboxMounts m;
    m.program_dir = target;
    m.program_name = sandbox_program_name(parent);
    m.tree = project_tree(cwd);
    m.out_dir = out_dir;
    m.fixed = fixed;
    link_ = fs::path(kSandboxStaging) / m.program_name;
    program_path_ = (parent.empty() ? link_ : link_ / parent) / program.path.filename();
    std::error_code ec;
    const fs::path rel = fs::canonical(cwd, ec).lexically_relative(m.tree);
    cwd_ = (rel.empty() || rel == "." ? fs::path(kSandboxTree) : kSandboxTree / rel).string();
    host_cwd_ = fs::canonical(cwd, ec);
    mounts_ = std::move(m);
}

std::vector<std::string> RunSandbox::map_arguments(const std::vector<std::string>& args) const {
    if (!mounts_) return args;
    std::vector<std::string> out;
    out.reserve(args.size());
    for (const auto& arg : args) {
        out.push_back(arg);
        if (arg.empty() || arg.front() == '-') continue;
        const bool absolute = arg.front() == '/';
        std::error_code ec;
        fs::path path = (absolute ? fs::path(arg) : host_cwd_ / arg).lexically_normal();
        const auto st = fs::symlink_status(path, ec);
        if (ec || !fs::exists(st)) continue;
        const bool path_like =
            absolute || arg.find('/') != std::string::npos || fs::is_regular_file(st);
        if (!path_like) continue;
        // Links in the directories resolved, the name itself kept (it may select behaviour).
        if (path.has_parent_path()) {
            const fs::path parent = fs::canonical(path.parent_path(), ec);
            if (!ec) path = path.filename().empty() ? parent : parent / path.filename();
        }
        if (within(path, mounts_->tree) || path == mounts_->tree) {
            const fs::path rel = path.lexically_relative(mounts_->tree);
            out.back() = (rel == "." ? fs::path(kSandboxTree) : kSandboxTree / rel).string();
        } else if (!absolute) {
            out.back() = path.string();  // it leaves the tree: by its absolute path
        }
    }
    return out;
}

std::vector<std::string> RunSandbox::map_output(std::vector<std::string> command) const {
    if (!mounts_) return command;
    const std::string host = mounts_->out_dir.string();
    for (auto& arg : command) {
        for (auto at = arg.find(host); at != std::string::npos;
             at = arg.find(host, at + kSandboxOut.size())) {
            arg.replace(at, host.size(), kSandboxOut);
        }
    }
    return command;
}

std::optional<SandboxMounts> RunSandbox::mounts() const {
    return mounts_;
}

std::string RunSandbox::preload() const {
    if (!fixed_.any()) return {};
    return mounts_ ? std::string(kSandboxLibrary) : staged_library().string();
}

}  // namespace cgbench::exec
