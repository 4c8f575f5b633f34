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

// Sets a sandbox up as `grant` says in a child that then exits: what every run will do,
// short of running. Bounded (kProbeLimit, Ctrl-C: Interrupted), like every wait for a run.
// `*refused_setup`: the namespaces were made, and a step of setting them up was refused.
Isolation probe_with(const SandboxGrant& grant, bool* refused_setup = nullptr) {
    Isolation out;
    SocketPair sync;
    Pipe report;
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
    const char* grant_step = "";
    const int grant_err = grant_sandbox(child, sync.write.get(), grant, &grant_step);
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
    } else if (grant_err != 0) {
        out.refused = fmt::format("{}: {}", grant_step, std::strerror(grant_err));
    } else if (r.err != 0) {
        out.refused = fmt::format("{}: {}", r.step, r.err > 0 ? std::strerror(r.err) : "failed");
    }
    if (refused_setup != nullptr) *refused_setup = reported && !out.refused.empty();
    if (out.refused.empty()) {
        out.namespaces = true;
        out.own_proc = r.own_proc;
    }
    return out;
}

// The isolation of this machine's runs: a user's one-id map; for root, first the map of an
// unused id with id-mapped mounts (tried on the staging directory, where Valgrind writes),
// else root's ids onto themselves.
Isolation probe() {
    SandboxGrant grant;
    if (::geteuid() != 0) {
        grant.uid = ::geteuid();
        grant.gid = ::getegid();
        return probe_with(grant);
    }
    grant.uid = grant.gid = kRootOuterId;
    grant.handover = true;
    std::string out_dir;
    try {
        out_dir = staging_root().string();
    } catch (const EnvironmentError&) {
    }
    grant.out_dir = out_dir.empty() ? nullptr : out_dir.c_str();
    bool refused_setup = false;
    Isolation mapped = probe_with(grant, &refused_setup);
    if (mapped.namespaces || !refused_setup || grant.out_dir == nullptr) return mapped;
    Isolation identity = probe_with(SandboxGrant{.identity = true});
    identity.root_identity = identity.namespaces;
    return identity.namespaces ? identity : mapped;
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

// Whether `dir` is one of the machine's (the distribution's, or installed for every user),
// not a caller's own.
bool machine_directory(const fs::path& dir) {
    if (dir == dir.root_path()) return true;
    for (const char* top : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
                            "/snap", "/nix", "/etc"}) {
        if (dir == top || within(dir, top)) return true;
    }
    return false;
}

// Whose ids become 0 in `m`'s namespace. A user maps itself. Root maps the owner of the
// tree (as if that user ran it), or kRootOuterId when root owns the tree; root's own parts
// (the tree, a program outside the machine's directories, the output, and then the top-level
// directories outside the machine's) are id-mapped so they show as uid 0 and stay writable.
void choose_ids(SandboxMounts& m) {
    if (::geteuid() != 0) {
        m.uid = ::geteuid();
        m.gid = ::getegid();
        return;
    }
    if (isolation().root_identity) {
        m.identity = true;
        return;
    }
    m.handover = true;
    struct stat tree {};
    const bool root_tree = ::stat(m.tree.c_str(), &tree) != 0 || tree.st_uid == 0;
    m.uid = root_tree ? kRootOuterId : tree.st_uid;
    m.gid = root_tree || tree.st_gid == 0 ? kRootOuterId : tree.st_gid;
    m.idmap_tree = m.idmap_tops = root_tree;
    struct stat program {};
    m.idmap_program = ::stat(m.program_dir.c_str(), &program) == 0 && program.st_uid == 0 &&
                      (m.program_dir == m.tree || within(m.program_dir, m.tree) ||
                       !machine_directory(m.program_dir));
}

}  // namespace

std::string Isolation::describe() const {
    if (namespaces) {
        return fmt::format("namespaces (uid 0, pid 2, /cgbench{}{})",
                           own_proc ? "" : "; the host's /proc",
                           root_identity ? "; root's ids unmapped" : "");
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
    choose_ids(m);
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
