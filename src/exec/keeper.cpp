#include "exec/keeper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <initializer_list>

// Only async-signal-safe calls below: this runs in a child of a multi-threaded process.

namespace cgbench::exec {

namespace {

// The keeper's descriptors after move_fds.
enum : int { kIn = 3, kOut, kErr, kExec, kEvent, kControl, kFirstFree };

constexpr int kMaxChildren = 4096;

void write_fully(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

void send(char kind, int value) {
    const KeeperEvent e{kind, value};
    write_fully(kEvent, &e, sizeof e);
}

void report(char kind, int err) {
    const ChildReport r{kind, err};
    write_fully(kExec, &r, sizeof r);
}

void close_from(int first) {
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
    struct rlimit lim {};
    const long limit = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536
                           ? static_cast<long>(lim.rlim_cur)
                           : 65536;
    for (long fd = first; fd < limit; ++fd)
        ::close(static_cast<int>(fd));
}

// Moves the six descriptors to 3..8 and closes every other one above stderr (cgbench's other
// threads may have anything open, including other keepers' control pipes).
void move_fds(const KeeperSetup& s) {
    const int from[6] = {s.in_fd, s.out_fd, s.err_fd, s.exec_fd, s.event_fd, s.control_fd};
    int base = kFirstFree;
    for (const int fd : from)
        base = fd >= base ? fd + 1 : base;
    int tmp[6];
    for (int i = 0; i < 6; ++i)
        tmp[i] = ::fcntl(from[i], F_DUPFD, base);
    for (int i = 0; i < 6; ++i)
        ::dup2(tmp[i], kIn + i);
    close_from(kFirstFree);
}

char* append_number(char* out, long v) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        *out++ = digits[--n];
    return out;
}

// Reads up to `cap` bytes of `path`; -1 when it cannot be opened.
ssize_t read_small_file(const char* path, char* buf, std::size_t cap) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    std::size_t n = 0;
    while (n < cap) {
        const ssize_t r = ::read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += static_cast<std::size_t>(r);
    }
    ::close(fd);
    return static_cast<ssize_t>(n);
}

// Parses decimal numbers separated by anything else.
int parse_pids(const char* buf, ssize_t n, pid_t* out, int cap) {
    int count = 0;
    long v = -1;
    for (ssize_t i = 0; i <= n && count < cap; ++i) {
        const char c = i < n ? buf[i] : ' ';
        if (c >= '0' && c <= '9') {
            v = (v < 0 ? 0 : v * 10) + (c - '0');
        } else if (v >= 0) {
            out[count++] = static_cast<pid_t>(v);
            v = -1;
        }
    }
    return count;
}

// The parent pid in the text of /proc/N/stat ("N (comm) S PPID ..."; comm may hold anything).
long stat_ppid(const char* buf, ssize_t n) {
    ssize_t close = -1;
    for (ssize_t i = 0; i < n; ++i)
        if (buf[i] == ')') close = i;
    if (close < 0 || close + 4 >= n) return -1;
    long v = 0;
    for (ssize_t i = close + 4; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i)
        v = v * 10 + (buf[i] - '0');
    return v;
}

// Children by scanning /proc, for kernels without /proc/PID/task/TID/children.
int scan_children(pid_t self, pid_t* out, int cap) {
    const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return 0;
    int count = 0;
    alignas(8) char ents[8192];
    ssize_t n = 0;
    while (count < cap && (n = ::syscall(SYS_getdents64, dir, ents, sizeof ents)) > 0) {
        for (ssize_t off = 0; off < n && count < cap;) {
            const auto reclen = *reinterpret_cast<unsigned short*>(ents + off + 16);
            const char* name = ents + off + 19;
            off += reclen;
            if (name[0] < '1' || name[0] > '9') continue;
            char path[64] = "/proc/";
            char* p = path + 6;
            long pid = 0;
            for (const char* c = name; *c >= '0' && *c <= '9' && p < path + 40; ++c) {
                *p++ = *c;
                pid = pid * 10 + (*c - '0');
            }
            const char tail[] = "/stat";
            for (const char c : tail)
                *p++ = c;
            char stat[1024];
            const ssize_t len = read_small_file(path, stat, sizeof stat);
            if (len > 0 && stat_ppid(stat, len) == self) out[count++] = static_cast<pid_t>(pid);
        }
    }
    ::close(dir);
    return count;
}

// The keeper's children (alive or not yet reaped).
int list_children(pid_t self, pid_t* out, int cap) {
    char path[64] = "/proc/self/task/";
    char* p = append_number(path + 16, self);
    const char tail[] = "/children";
    for (const char c : tail)
        *p++ = c;
    static char buf[65536];
    const ssize_t n = read_small_file(path, buf, sizeof buf);
    if (n < 0) return scan_children(self, out, cap);
    return parse_pids(buf, n, out, cap);
}

bool is_zombie(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid;
}

// Whether the keeper is pid 1 of a pid namespace of its own (the sandbox): it then reaches
// its tree through kill(-1) and waitpid(-1), never through /proc, which may be the host's.
bool in_namespace = false;

// Reaps the children that have ended, except `keep` (the program, reaped last).
void reap_ended(pid_t self, pid_t keep) {
    if (in_namespace) {
        siginfo_t info{};
        while (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0 &&
               info.si_pid != keep) {
            ::waitpid(info.si_pid, nullptr, WNOHANG);
            info = siginfo_t{};
        }
        return;
    }
    static pid_t kids[kMaxChildren];
    const int n = list_children(self, kids, kMaxChildren);
    for (int i = 0; i < n; ++i) {
        if (kids[i] != keep) ::waitpid(kids[i], nullptr, WNOHANG);
    }
}

// In a pid namespace: kills every process but the keeper at once and reaps them all (the
// program too); returns how many besides the program were still there.
int sweep_namespace(pid_t program) {
    reap_ended(0, program);
    ::kill(-1, SIGKILL);
    int killed = 0;
    while (true) {
        const pid_t pid = ::waitpid(-1, nullptr, 0);
        if (pid < 0 && errno == EINTR) continue;
        if (pid < 0) return killed;  // ECHILD: nothing left
        if (pid != program) ++killed;
    }
}

// Kills every process left in the tree, level by level (a killed process's children come to
// the keeper, the subreaper), and returns how many were still running. Processes the keeper
// may not kill (a setuid program's) are counted in `unkillable` and left alone, never waited
// for.
int sweep(pid_t self, pid_t program, int& unkillable) {
    if (in_namespace) return sweep_namespace(program);
    static pid_t kids[kMaxChildren];
    int killed = 0;
    for (int round = 0; round < 100000; ++round) {
        const int n = list_children(self, kids, kMaxChildren);
        int alive = 0;
        int refused = 0;
        for (int i = 0; i < n; ++i) {
            if (kids[i] == program || is_zombie(kids[i])) continue;
            if (::kill(kids[i], SIGKILL) != 0 && errno == EPERM) {
                ++refused;
                continue;
            }
            kids[alive++] = kids[i];
        }
        for (int i = 0; i < alive; ++i) {
            while (::waitpid(kids[i], nullptr, 0) < 0 && errno == EINTR) {
            }
        }
        killed += alive;
        reap_ended(self, program);
        unkillable = refused;
        if (alive == 0) break;
    }
    return killed;
}

[[noreturn]] void program_main(const KeeperSetup& s, pid_t keeper) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != keeper) ::_exit(127);
    sigset_t none;
    sigemptyset(&none);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD})
        ::signal(sig, SIG_DFL);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (s.disable_aslr) {
        const int current = ::personality(0xffffffff);
        if (current == -1 ||
            ::personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) {
            report('A', errno);
        }
    }
    if (s.cwd != nullptr && ::chdir(s.cwd) != 0) {
        report('C', errno);
        ::_exit(127);
    }
    ::dup2(kIn, 0);
    ::dup2(kOut, 1);
    ::dup2(kErr, 2);
    for (const int fd : {kIn, kOut, kErr, kEvent, kControl})
        ::close(fd);
    ::fcntl(kExec, F_SETFD, FD_CLOEXEC);
    ::execve(s.argv[0], s.argv, s.envp);
    report('E', errno);
    ::_exit(127);
}

// Waits until the program ends; asks for a kill of its group when cgbench says so, goes away,
// or sends a termination signal. Returns the program's wait information.
siginfo_t supervise(pid_t self, pid_t program, int sfd, bool kill_now) {
    bool control_open = true;
    bool killed = false;
    while (true) {
        if (kill_now && !killed) {
            if (in_namespace) ::kill(-1, SIGKILL);
            ::kill(-program, SIGKILL);
            ::kill(program, SIGKILL);
            killed = true;
        }
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(program), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == program) {
            return info;
        }
        reap_ended(self, program);
        pollfd pfds[2] = {{control_open ? kControl : -1, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (::poll(pfds, 2, -1) < 0) continue;
        if (pfds[0].revents != 0) {
            char c = 0;
            const ssize_t r = ::read(kControl, &c, 1);
            if (r == 0 || (r == 1 && c == kControlKill)) kill_now = true;
            if (r == 0) control_open = false;  // cgbench is gone
        }
        if (pfds[1].revents != 0) {
            signalfd_siginfo si{};
            while (::read(sfd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
                if (si.ssi_signo != SIGCHLD) kill_now = true;
            }
        }
    }
}

}  // namespace

[[noreturn]] void keeper_main(const KeeperSetup& s) {
    ::setpgid(0, 0);
    sigset_t all;
    sigfillset(&all);
    ::sigprocmask(SIG_SETMASK, &all, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // delivered through the signalfd below
    // In a pid namespace the parent is outside it (getppid() is 0); a cgbench that died
    // before writing the id maps shows as the end of the sync pipe instead.
    bool orphaned = false;
    if (s.sandbox != nullptr) {
        in_namespace = true;
        const char* step = "";
        bool own_proc = false;
        const int err = enter_sandbox(*s.sandbox, &step, &own_proc);
        if (err != 0) {
            const KeeperEvent e{kEventSandboxFailed, err};
            write_fully(s.event_fd, &e, sizeof e);
            ::_exit(0);
        }
    } else {
        orphaned = ::getppid() != s.parent_pid;
    }
    move_fds(s);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigset_t watch;
    sigemptyset(&watch);
    for (const int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP})
        sigaddset(&watch, sig);
    const int sfd = ::signalfd(-1, &watch, SFD_CLOEXEC | SFD_NONBLOCK);
    const pid_t self = ::getpid();
    // Not fork(): a keeper cloned from a multi-threaded cgbench (the sandbox) may hold a copy
    // of a C-library lock another thread held at that instant (fork's own atfork lock), and
    // fork() would wait on it for ever. The program's half only makes async-signal-safe calls.
    const pid_t program = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
    if (program < 0) {
        send(kEventForkFailed, errno);
        ::_exit(0);
    }
    if (program == 0) program_main(s, self);
    ::setpgid(program, program);  // also here, so a kill right away reaches the group
    for (const int fd : {kIn, kOut, kErr, kExec})
        ::close(fd);
    send(kEventPid, program);
    const siginfo_t info = supervise(self, program, sfd, orphaned);
    send(info.si_code == CLD_EXITED ? kEventExit : kEventSignal, info.si_status);
    int unkillable = 0;
    const int leftovers = sweep(self, program, unkillable);
    while (::waitpid(program, nullptr, 0) < 0 && errno == EINTR) {
    }
    send(kEventLeftover, leftovers);
    if (unkillable > 0) send(kEventUnkillable, unkillable);
    ::_exit(0);
}

}  // namespace cgbench::exec
