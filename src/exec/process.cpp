#include "exec/process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <mutex>

#include "core/errors.hpp"
#include "exec/interrupt.hpp"

namespace cgbench::exec {

namespace {

using Clock = std::chrono::steady_clock;

// A status record the child writes before exec (CLOEXEC pipe: EOF means exec succeeded).
struct ChildReport {
    char kind;  // 'A' aslr refused (non-fatal), 'C' chdir failed, 'E' exec failed
    int err;
};

class Fd {
  public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

  private:
    int fd_ = -1;
};

struct Pipe {
    Fd read;
    Fd write;
    Pipe() {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0) {
            throw EnvironmentError(fmt::format("pipe() failed: {}", strerror(errno)));
        }
        read.reset(p[0]);
        write.reset(p[1]);
    }
};

// Keeps the last `cap` bytes of a stream.
class Tail {
  public:
    explicit Tail(std::size_t cap) : cap_(cap) {}
    void append(const char* data, std::size_t n) {
        buf_.append(data, n);
        if (buf_.size() > 2 * cap_) buf_.erase(0, buf_.size() - cap_);
    }
    std::string take() {
        if (buf_.size() > cap_) buf_.erase(0, buf_.size() - cap_);
        return std::move(buf_);
    }

  private:
    std::size_t cap_;
    std::string buf_;
};

std::vector<char*> c_strings(const std::vector<std::string>& v) {
    std::vector<char*> out;
    out.reserve(v.size() + 1);
    for (const auto& s : v)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

void report(int fd, char kind, int err) {
    const ChildReport r{kind, err};
    [[maybe_unused]] const ssize_t n = ::write(fd, &r, sizeof r);
}

// Marks every descriptor above stderr close-on-exec. cgbench's other threads may have files
// open without O_CLOEXEC at the moment of fork (streams being read, copies of raw files);
// the program must start with the same descriptors whatever else cgbench was doing.
void close_on_exec_above_stderr(int max_fd) {
#ifdef CLOSE_RANGE_CLOEXEC
    if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
#endif
    for (int fd = 3; fd < max_fd; ++fd)
        ::fcntl(fd, F_SETFD, FD_CLOEXEC);  // kernels before 5.11
}

// The descriptor limit for close_on_exec_above_stderr's fallback (sysconf is not
// async-signal-safe, so it is read before fork).
int max_fd() {
    static const int limit = static_cast<int>(std::clamp(::sysconf(_SC_OPEN_MAX), 256L, 65536L));
    return limit;
}

// Runs in the forked child: only async-signal-safe calls until execve. Safe while other
// threads run: everything it touches was prepared before fork.
[[noreturn]] void child_main(const ProcessSpec& spec, char** argv, char** envp, int in_fd,
                             int out_fd, int err_fd, int status_fd, int fd_limit) {
    ::setpgid(0, 0);
    sigset_t all;
    sigemptyset(&all);
    ::sigprocmask(SIG_SETMASK, &all, nullptr);
    for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT})
        ::signal(s, SIG_DFL);
    if (spec.disable_aslr) {
        const int current = ::personality(0xffffffff);
        if (current == -1 ||
            ::personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) {
            report(status_fd, 'A', errno);
        }
    }
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) {
        report(status_fd, 'C', errno);
        ::_exit(127);
    }
    close_on_exec_above_stderr(fd_limit);
    ::dup2(in_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::execve(argv[0], argv, envp);
    report(status_fd, 'E', errno);
    ::_exit(127);
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
}

// Kills what is left of the group (its leader, the program, is at most a zombie by now), then
// reaps the program and every descendant that was re-parented to us (we are a child
// subreaper), so nothing outlives the measurement. Returns how many processes were reaped.
int kill_and_reap_group(pid_t pgid) {
    ::kill(-pgid, SIGKILL);
    int reaped = 0;
    int status = 0;
    while (true) {
        const pid_t r = ::waitpid(-pgid, &status, 0);
        if (r > 0) {
            ++reaped;
        } else if (errno != EINTR) {
            return reaped;
        }
    }
}

void echo(const char* data, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(2, data, n);
        if (w <= 0) return;
        data += w;
        n -= static_cast<std::size_t>(w);
    }
}

class Session {
  public:
    Session(const ProcessSpec& spec, pid_t pid, int out_fd, int err_fd)
        : spec_(spec), pid_(pid), out_(spec.tail_bytes), err_(spec.tail_bytes) {
        fds_[0] = out_fd;
        fds_[1] = err_fd;
        pidfd_.reset(open_pidfd(pid));
    }

    // Waits for exit, timeout or interrupt; fills how/exit_code/signal.
    void wait(ProcessOutcome& outcome, Clock::time_point start) {
        // Beyond ~30 years means never (and would overflow the clock's nanoseconds).
        constexpr double kNever = 1e9;
        const auto deadline =
            spec_.timeout_seconds && *spec_.timeout_seconds < kNever
                ? start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(*spec_.timeout_seconds))
                : Clock::time_point::max();
        while (true) {
            if (exited(outcome)) break;
            const auto now = Clock::now();
            if (now >= deadline) {
                outcome.how = Termination::TimedOut;
                break;
            }
            poll_once(deadline - now);
            if (interrupt_signal() != 0) {
                kill_and_reap_group(pid_);
                throw_if_interrupted();
            }
        }
        outcome.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        // More than the program itself reaped: something it started was still running.
        const int reaped = kill_and_reap_group(pid_);
        outcome.killed_leftovers = reaped > 1 && outcome.how != Termination::TimedOut;
        drain();
        outcome.stdout_tail = out_.take();
        outcome.stderr_tail = err_.take();
    }

  private:
    // Observes (without reaping) whether the program has ended, so the group can still be
    // killed by its id.
    bool exited(ProcessOutcome& outcome) {
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
            info.si_pid == 0) {
            return false;
        }
        if (info.si_code == CLD_EXITED) {
            outcome.how = Termination::Exited;
            outcome.exit_code = info.si_status;
        } else {
            outcome.how = Termination::Signaled;
            outcome.signal = info.si_status;
        }
        return true;
    }

    void poll_once(Clock::duration left) {
        pollfd pfds[4];
        nfds_t n = 0;
        for (const int fd : fds_) {
            if (fd >= 0) pfds[n++] = {fd, POLLIN, 0};
        }
        if (pidfd_.get() >= 0) pfds[n++] = {pidfd_.get(), POLLIN, 0};
        if (interrupt_fd() >= 0) pfds[n++] = {interrupt_fd(), POLLIN, 0};
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count() + 1;
        if (pidfd_.get() < 0) ms = std::min<long long>(ms, 10);  // no pidfd: poll for exit
        const int r = ::poll(pfds, n, static_cast<int>(std::min<long long>(ms, 1000)));
        if (r <= 0) return;
        for (nfds_t i = 0; i < n; ++i) {
            if (pfds[i].revents == 0) continue;
            if (pfds[i].fd == fds_[0]) read_into(0);
            if (pfds[i].fd == fds_[1]) read_into(1);
        }
    }

    // Reads what is available; marks the stream closed at EOF.
    void read_into(int which) {
        char buf[65536];
        const ssize_t n = ::read(fds_[which], buf, sizeof buf);
        if (n < 0 && errno == EINTR) return;
        if (n <= 0) {
            fds_[which] = -1;
            return;
        }
        (which == 0 ? out_ : err_).append(buf, static_cast<std::size_t>(n));
        if (spec_.echo_output) echo(buf, static_cast<std::size_t>(n));
    }

    // After the group is gone the write ends are closed; read to EOF (bounded, in case a
    // process that left the group still holds a pipe).
    void drain() {
        const auto until = Clock::now() + std::chrono::seconds(1);
        while ((fds_[0] >= 0 || fds_[1] >= 0) && Clock::now() < until) {
            pidfd_.reset();
            poll_once(std::chrono::milliseconds(100));
        }
    }

    const ProcessSpec& spec_;
    pid_t pid_;
    int fds_[2];
    Fd pidfd_;
    Tail out_;
    Tail err_;
};

}  // namespace

PosixProcessRunner::PosixProcessRunner() {
    static std::once_flag once;
    std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1); });
    install_interrupt_handlers();
}

ProcessOutcome PosixProcessRunner::run(const ProcessSpec& spec) {
    throw_if_interrupted();
    const std::string in_path = spec.stdin_path.empty() ? "/dev/null" : spec.stdin_path;
    Fd in(::open(in_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.get() < 0) {
        throw UsageError(fmt::format("cannot open stdin file {}: {}", in_path, strerror(errno)),
                         "check the stdin path");
    }
    Pipe out, err, status;
    auto argv = c_strings(spec.argv);
    auto envp = c_strings(spec.env);
    const int fd_limit = max_fd();

    const auto start = Clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) throw EnvironmentError(fmt::format("fork() failed: {}", strerror(errno)));
    if (pid == 0) {
        child_main(spec, argv.data(), envp.data(), in.get(), out.write.get(), err.write.get(),
                   status.write.get(), fd_limit);
    }
    ::setpgid(pid, pid);  // also in the parent, so a kill right away reaches the group
    out.write.reset();
    err.write.reset();
    status.write.reset();

    ProcessOutcome outcome;
    ChildReport rep{};
    ssize_t n = 0;
    while ((n = ::read(status.read.get(), &rep, sizeof rep)) == sizeof rep ||
           (n < 0 && errno == EINTR)) {
        if (n < 0) continue;
        if (rep.kind == 'A') {
            outcome.aslr_errno = rep.err;
        } else {
            outcome.how = Termination::SpawnFailed;
            outcome.spawn_step = rep.kind == 'C' ? "chdir" : "exec";
            outcome.spawn_errno = rep.err;
        }
    }
    if (outcome.how == Termination::SpawnFailed) {
        kill_and_reap_group(pid);
        return outcome;
    }
    Session session(spec, pid, out.read.get(), err.read.get());
    session.wait(outcome, start);
    return outcome;
}

std::string describe_signal(int signo) {
    const char* abbrev = sigabbrev_np(signo);
    const char* text = sigdescr_np(signo);
    if (abbrev == nullptr) return fmt::format("signal {}", signo);
    return fmt::format("{} (SIG{})", text ? text : "unknown", abbrev);
}

}  // namespace cgbench::exec
