#include "e2e/hardening.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "e2e/harness.hpp"
#include "sqlite_store/sqlite_history.hpp"

extern char** environ;

namespace cgbench::e2e {

namespace {

std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
    std::map<std::string, std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string kv(*e);
        env[kv.substr(0, kv.find('='))] = kv;
    }
    for (const auto& kv : extra)
        env[kv.substr(0, kv.find('='))] = kv;
    std::vector<std::string> out;
    for (auto& [k, kv] : env)
        out.push_back(kv);
    return out;
}

// In the child: set up the descriptors, the user and the directory as `spawn` says, then exec.
[[noreturn]] void exec_child(std::vector<std::string> argv, std::vector<std::string> env,
                             const Spawn& spawn, int in, int out, int err) {
    if (!spawn.stdout_path.empty()) out = ::open(spawn.stdout_path.c_str(), O_WRONLY);
    if (out < 0) ::_exit(125);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (!spawn.cwd.empty() && ::chdir(spawn.cwd.c_str()) != 0) ::_exit(125);
    if (spawn.remove_cwd && ::rmdir(spawn.cwd.c_str()) != 0) ::_exit(125);
    if (spawn.uid) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(*spawn.uid) != 0 ||
            ::setuid(*spawn.uid) != 0) {
            ::_exit(125);
        }
    }
    std::vector<char*> a, v;
    for (auto& s : argv)
        a.push_back(s.data());
    a.push_back(nullptr);
    for (auto& s : env)
        v.push_back(s.data());
    v.push_back(nullptr);
    ::execve(a[0], a.data(), v.data());
    ::_exit(127);
}

// Reads both pipes to their end.
void drain(int out, int err, std::string& out_text, std::string& err_text) {
    pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};  // a negative fd is not polled
    std::string* texts[2] = {&out_text, &err_text};
    char buffer[65536];
    for (int open = (out >= 0) + (err >= 0); open > 0;) {
        if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                texts[i]->append(buffer, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
}

}  // namespace

Spawned run_cgbench(const std::vector<std::string>& args, const Spawn& spawn) {
    std::vector<std::string> argv = spawn.through;
    argv.push_back(CGBENCH_BINARY);
    argv.insert(argv.end(), args.begin(), args.end());
    const auto env = environment_with(spawn.env);
    // stdin: a pipe closed at once (end of file); stdout and stderr: pipes read here. Nothing
    // on disk, so a case may fill every filesystem it mounts.
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
        ::pipe2(err, O_CLOEXEC) != 0) {
        return {};
    }
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) exec_child(argv, env, spawn, in[0], out[1], err[1]);
    ::close(in[0]);
    ::close(in[1]);
    ::close(out[1]);
    ::close(err[1]);
    if (spawn.stdout_reader_closed) ::close(out[0]);  // nobody reads: writes fail with EPIPE
    if (spawn.started) spawn.started(pid);
    Spawned r;
    drain(spawn.stdout_reader_closed ? -1 : out[0], err[0], r.out, r.err);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

void Checks::expect(bool ok, const std::string& what) {
    if (!ok) failures_ += what + "\n";
}

namespace {

// When the build tree (cgbench and the test programs) lies below `mnt`, now covered by a
// tmpfs, bind-mounts it back from `below` (the covered directory, opened before) at the same
// path, so the binaries run; true if nothing was needed or the bind worked.
bool keep_build_tree_visible(const fs::path& mnt, int below) {
    const fs::path build = fs::path(CGBENCH_BINARY).parent_path().parent_path();
    const fs::path rel = build.lexically_relative(mnt);
    if (rel.empty() || *rel.begin() == "..") return true;
    std::error_code ec;
    fs::create_directories(mnt / rel, ec);
    const std::string from = fmt::format("/proc/self/fd/{}/{}", below, rel.string());
    return !ec && ::mount(from.c_str(), (mnt / rel).c_str(), nullptr, MS_BIND, nullptr) == 0;
}

// `options` without "ro": a read-only tmpfs is mounted writable first, so the build tree's
// mount point can be made in it (a clone in /tmp), then remounted read-only.
std::string writable(const std::string& options) {
    std::string out;
    std::size_t at = 0;
    while (at <= options.size()) {
        const auto end = std::min(options.find(',', at), options.size());
        const auto o = options.substr(at, end - at);
        if (o != "ro") out += (out.empty() ? "" : ",") + o;
        at = end + 1;
    }
    return out;
}

}  // namespace

std::string in_private_tmpfs(const fs::path& mnt, const std::string& options,
                             const std::function<std::string(const fs::path&)>& body) {
    if (::geteuid() != 0) return "SKIP: needs root for a private mount namespace and tmpfs";
    fs::create_directories(mnt);
    int report[2];
    if (::pipe(report) != 0) return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(report[0]);
        std::string result;
        int below = -1;  // the directory the tmpfs hides, opened in the new namespace
        if (::unshare(CLONE_NEWNS) != 0) {
            result = std::string("SKIP: unshare(CLONE_NEWNS) refused: ") + std::strerror(errno);
        } else if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
                   // Kept open: the build tree may lie below it (a clone in /tmp), and the
                   // binaries must stay reachable.
                   (below = ::open(mnt.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
                   ::mount("tmpfs", mnt.c_str(), "tmpfs", 0, writable(options).c_str()) != 0) {
            result = std::string("SKIP: cannot mount a private tmpfs: ") + std::strerror(errno);
        } else if (!keep_build_tree_visible(mnt, below)) {
            result = "cannot keep the build tree visible under " + mnt.string() + "\n";
        } else if (writable(options) != options &&
                   ::mount(nullptr, mnt.c_str(), nullptr, MS_REMOUNT | MS_RDONLY,
                           writable(options).c_str()) != 0) {
            result = std::string("cannot make the tmpfs read-only: ") + std::strerror(errno);
        } else {
            try {
                result = body(mnt);
            } catch (const std::exception& e) {
                result = std::string("exception: ") + e.what();
            }
        }
        for (std::size_t done = 0; done < result.size();) {
            const ssize_t n = ::write(report[1], result.data() + done, result.size() - done);
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(report[1]);
    std::string result;
    char buffer[4096];
    for (ssize_t n; (n = ::read(report[0], buffer, sizeof buffer)) > 0;)
        result.append(buffer, static_cast<std::size_t>(n));
    ::close(report[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) result += "the namespace's process died\n";
    return result;
}

bool make_char_device(const fs::path& path, unsigned major, unsigned minor) {
    return ::mknod(path.c_str(), S_IFCHR | 0666, ::makedev(major, minor)) == 0;
}

bool fill_filesystem(const fs::path& dir) {
    const int fd = ::open((dir / "filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    const std::string block(64 * 1024, 'x');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    const std::string byte(1, 'x');
    while (::write(fd, byte.data(), 1) > 0) {
    }
    ::close(fd);
    return true;
}

bool is_char_device(const fs::path& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

std::size_t history_runs(const fs::path& db) {
    auto store = sqlite_store::SqliteHistory::open_existing(db);
    return store ? store->run_count() : 0;
}

nlohmann::json measured_ir(const fs::path& dir) {
    const auto out = dir / "measured.json";
    const auto r = cgbench({"run", "-q", "--no-db", "--weights", "ir", "--name", "w1", "--out",
                            out.string(), "--", program("workload"), "1000"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_json(out);
}

}  // namespace cgbench::e2e
