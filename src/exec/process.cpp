#include "exec/process.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <string_view>

#include "exec/fixed_inputs.hpp"
#include "exec/interrupt.hpp"
#include "exec/keeper.hpp"
#include "exec/process_io.hpp"
#include "exec/sandbox_setup.hpp"

namespace cgbench::exec {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kNever = Clock::time_point::max();
// How long a keeper may take to kill its tree after being asked before cgbench stops waiting.
constexpr auto kKillGrace = std::chrono::seconds(10);

std::vector<char*> c_strings(const std::vector<std::string>& v) {
    std::vector<char*> out;
    out.reserve(v.size() + 1);
    for (const auto& s : v)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

void echo(const char* data, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(2, data, n);
        if (w <= 0) return;
        data += w;
        n -= static_cast<std::size_t>(w);
    }
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Counts the files a ProcessLimit watches for, as they appear (inotify).
class ProcessCounter {
  public:
    explicit ProcessCounter(const std::optional<ProcessSpec::ProcessLimit>& limit) {
        if (!limit || limit->max == 0) return;
        limit_ = *limit;
        fd_.reset(::inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
        if (fd_.get() >= 0 &&
            ::inotify_add_watch(fd_.get(), limit_.dir.c_str(), IN_CREATE | IN_MOVED_TO) < 0) {
            fd_.reset();
        }
    }
    int fd() const { return fd_.get(); }
    // Reads the pending notifications; true when the limit is now exceeded.
    bool over_limit() {
        alignas(inotify_event) char buf[16384];
        ssize_t n = 0;
        while ((n = ::read(fd_.get(), buf, sizeof buf)) > 0) {
            for (ssize_t off = 0; off < n;) {
                const auto* e = reinterpret_cast<const inotify_event*>(buf + off);
                off += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
                if (e->len > 0 && std::string_view(e->name).starts_with(limit_.prefix)) ++seen_;
            }
        }
        return seen_ > limit_.max;
    }

  private:
    ProcessSpec::ProcessLimit limit_;
    Fd fd_;
    std::size_t seen_ = 0;
};

// The descriptors of one run, cgbench's ends.
struct SessionFds {
    int out, err;  // the program's output
    int exec;      // the program's reports before exec (ChildReport), EOF at exec
    int events;    // the keeper's events (KeeperEvent)
    int control;   // to the keeper (kControlKill)
};

// cgbench's side of one run: the program's start, its output, the keeper's events, the
// deadline, the process limit and Ctrl-C, all in one poll: no wait is longer than the
// deadline, even one for a keeper or an exec that never gets anywhere.
class Session {
  public:
    Session(const ProcessSpec& spec, pid_t keeper, const SessionFds& fds)
        : spec_(spec),
          sandboxed_(spec.sandbox.has_value()),
          keeper_(keeper),
          control_fd_(fds.control),
          event_fd_(fds.events),
          exec_fd_(fds.exec),
          fds_{fds.out, fds.err},
          counter_(spec.process_limit),
          out_(spec.tail_bytes),
          err_(spec.tail_bytes) {}

    // Waits until the keeper has reported the end and exited, then fills the outputs. Throws
    // Interrupted (once the tree is gone) when cgbench was interrupted.
    void wait(ProcessOutcome& outcome, Clock::time_point start) {
        // Beyond ~30 years means never (and would overflow the clock's nanoseconds).
        constexpr double kNeverSeconds = 1e9;
        const auto deadline =
            spec_.timeout_seconds && *spec_.timeout_seconds < kNeverSeconds
                ? start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(*spec_.timeout_seconds))
                : kNever;
        while (event_fd_ >= 0) {
            const auto now = Clock::now();
            if (kill_sent_ == kNever && !ended_ && now >= deadline) {
                outcome.how = Termination::TimedOut;
                outcome.wall_seconds = seconds_since(start);
                request_kill(outcome);
            }
            if (kill_sent_ == kNever && interrupted()) request_kill(outcome);
            // After the program ended the keeper only sweeps; one that does not finish within
            // the grace (a process stuck in the kernel) is stopped, so no wait is unbounded.
            if (kill_sent_ == kNever && ended_at_ != kNever && now - ended_at_ > kKillGrace) {
                request_kill(outcome);
            }
            if (kill_sent_ != kNever && now - kill_sent_ > kKillGrace) {
                ::kill(keeper_, SIGKILL);  // a keeper that does not finish: stop waiting
                kill_group(outcome);
                gave_up_ = true;
                break;
            }
            const auto left = kill_sent_ == kNever && !ended_
                                  ? deadline - now
                                  : Clock::duration(std::chrono::seconds(1));
            poll_once(outcome, std::clamp<Clock::duration>(left, std::chrono::milliseconds(0),
                                                           std::chrono::seconds(1)));
            if (counter_.fd() >= 0 && kill_sent_ == kNever && counter_.over_limit()) {
                outcome.how = Termination::Limited;
                outcome.wall_seconds = seconds_since(start);
                request_kill(outcome);
            }
            read_events(outcome, start);
        }
        reap_keeper();
        read_pending_exec_reports(outcome);
        // A keeper killed before cgbench read the program's pid may have been a moment past
        // reporting it (the events to its end are read now); what is left of that group goes.
        if (keeper_killed_) kill_group(outcome);
        drain();
        outcome.stdout_tail = out_.take();
        outcome.stderr_tail = err_.take();
        if (!spec_.uninterruptible) throw_if_interrupted();
        if (sandbox_errno_ != 0) {
            throw EnvironmentError(
                fmt::format("cannot set up the program's namespaces: {}",
                            grant_failure_.empty() ? strerror(sandbox_errno_) : grant_failure_),
                "report this: the same setup succeeded when cgbench started");
        }
        if (!ended_ && outcome.how != Termination::TimedOut &&
            outcome.how != Termination::Limited) {
            // The keeper was killed: its tree is gone with it in a sandbox; without one, what
            // is left of the program's process group goes now.
            kill_group(outcome);
            throw EnvironmentError(
                "the process that supervises the measured program ended without reporting "
                "how the program ended");
        }
    }

    // What failed on cgbench's side of setting the sandbox up (grant_sandbox), for the error.
    void set_grant_failure(std::string what) { grant_failure_ = std::move(what); }

  private:
    // Waits for the killed keeper; one stuck in the kernel (a hung file system) even after
    // SIGKILL is given a second and then left to the system, unreaped.
    void reap_keeper() const {
        const auto until = Clock::now() + std::chrono::seconds(1);
        while (true) {
            const pid_t r = ::waitpid(keeper_, nullptr, gave_up_ ? WNOHANG : 0);
            if (r < 0 && errno == EINTR) continue;
            if (r != 0 || Clock::now() >= until) return;
            ::poll(nullptr, 0, 20);
        }
    }

    bool interrupted() const { return !spec_.uninterruptible && interrupt_signal() != 0; }
    // Kills the program's process group, when it is one of the host's (not in a sandbox, where
    // the pid is the namespace's and the keeper's death kills everything).
    void kill_group(const ProcessOutcome& outcome) const {
        if (!sandboxed_ && outcome.pid > 0) ::kill(-outcome.pid, SIGKILL);
    }

    // Until the keeper has reported the program's pid it is setting up (the namespaces, the
    // program's process) and does not read the control pipe: it is killed, which kills all
    // it started (in a sandbox, as pid 1 of the namespace; without one, the program has
    // PR_SET_PDEATHSIG). From then on it kills the tree itself when asked.
    void request_kill(ProcessOutcome& outcome) {
        read_pending_exec_reports(outcome);  // an exec that just returned: the program started
        pollfd p{event_fd_, POLLIN, 0};
        event_ready_ = ::poll(&p, 1, 0) > 0;
        if (pid_reported_ || event_ready_) {
            const char c = kControlKill;
            [[maybe_unused]] const ssize_t n = ::write(control_fd_, &c, 1);
        } else {
            ::kill(keeper_, SIGKILL);
            keeper_killed_ = true;
        }
        kill_sent_ = Clock::now();
    }

    // Reads what the program reported before its exec and cgbench has not read yet, without
    // waiting.
    void read_pending_exec_reports(ProcessOutcome& outcome) {
        for (pollfd p{exec_fd_, POLLIN, 0}; exec_fd_ >= 0 && ::poll(&p, 1, 0) > 0;)
            read_exec_report(outcome);
    }

    // Reads one report of the program before its exec; EOF (the exec, or the program's
    // end) closes the stream. Blocks only when the pipe is readable or closed.
    void read_exec_report(ProcessOutcome& outcome) {
        ChildReport rep{};
        const ssize_t n = ::read(exec_fd_, &rep, sizeof rep);
        if (n < 0 && errno == EINTR) return;
        if (n != static_cast<ssize_t>(sizeof rep)) {
            if (n == 0 && kill_sent_ == kNever && outcome.spawn_step.empty()) {
                outcome.started = true;
            }
            exec_fd_ = -1;
            return;
        }
        if (rep.kind == 'A') {
            outcome.aslr_errno = rep.err;
        } else {
            outcome.spawn_step = rep.kind == 'C' ? "chdir" : "exec";
            outcome.spawn_errno = rep.err;
        }
    }

    void read_events(ProcessOutcome& outcome, Clock::time_point start) {
        while (event_ready_) {
            KeeperEvent e{};
            const ssize_t n = ::read(event_fd_, &e, sizeof e);
            if (n < 0 && errno == EINTR) continue;
            if (n != static_cast<ssize_t>(sizeof e)) {
                event_fd_ = -1;  // EOF: the keeper is done
                return;
            }
            apply(e, outcome, start);
            pollfd p{event_fd_, POLLIN, 0};
            event_ready_ = ::poll(&p, 1, 0) > 0;
        }
    }

    void apply(const KeeperEvent& e, ProcessOutcome& outcome, Clock::time_point start) {
        const bool killed =
            outcome.how == Termination::TimedOut || outcome.how == Termination::Limited;
        switch (e.kind) {
            case kEventPid:
                outcome.pid = e.value;
                pid_reported_ = true;
                break;
            case kEventExit:
            case kEventSignal:
                ended_ = true;
                ended_at_ = Clock::now();
                if (killed) break;
                outcome.how = e.kind == kEventExit ? Termination::Exited : Termination::Signaled;
                (e.kind == kEventExit ? outcome.exit_code : outcome.signal) = e.value;
                outcome.wall_seconds = seconds_since(start);
                break;
            case kEventLeftover:
                if (!killed && kill_sent_ == kNever) outcome.leftover_processes = e.value;
                outcome.killed_leftovers = outcome.leftover_processes > 0;
                break;
            case kEventForkFailed:
                ended_ = true;
                outcome.how = Termination::SpawnFailed;
                outcome.spawn_step = "fork";
                outcome.spawn_errno = e.value;
                break;
            case kEventUnkillable:
                outcome.unkillable_processes = e.value;
                break;
            case kEventSandboxFailed:
                ended_ = true;
                sandbox_errno_ = e.value;
                break;
            default:
                break;
        }
    }

    void poll_once(ProcessOutcome& outcome, Clock::duration left) {
        pollfd pfds[6];
        nfds_t n = 0;
        for (const int fd : fds_) {
            if (fd >= 0) pfds[n++] = {fd, POLLIN, 0};
        }
        const nfds_t events_at = n;
        pfds[n++] = {event_fd_, POLLIN, 0};
        const nfds_t exec_at = n;
        pfds[n++] = {exec_fd_, POLLIN, 0};  // ignored by poll once closed (-1)
        if (counter_.fd() >= 0) pfds[n++] = {counter_.fd(), POLLIN, 0};
        if (kill_sent_ == kNever && !spec_.uninterruptible && interrupt_fd() >= 0) {
            pfds[n++] = {interrupt_fd(), POLLIN, 0};
        }
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
        if (::poll(pfds, n, static_cast<int>(ms) + 1) <= 0) return;
        event_ready_ = pfds[events_at].revents != 0;
        if (pfds[exec_at].revents != 0) read_exec_report(outcome);
        for (nfds_t i = 0; i < events_at; ++i) {
            if (pfds[i].revents != 0) read_into(pfds[i].fd == fds_[0] ? 0 : 1);
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

    // The tree is gone, so every write end is closed; read to EOF (bounded, in case the
    // program handed a pipe to something outside its tree).
    void drain() {
        const auto until = Clock::now() + std::chrono::seconds(1);
        while ((fds_[0] >= 0 || fds_[1] >= 0) && Clock::now() < until) {
            pollfd pfds[2];
            nfds_t n = 0;
            for (const int fd : fds_) {
                if (fd >= 0) pfds[n++] = {fd, POLLIN, 0};
            }
            if (::poll(pfds, n, 100) <= 0) continue;
            for (nfds_t i = 0; i < n; ++i) {
                if (pfds[i].revents != 0) read_into(pfds[i].fd == fds_[0] ? 0 : 1);
            }
        }
    }

    const ProcessSpec& spec_;
    bool sandboxed_;
    int sandbox_errno_ = 0;
    std::string grant_failure_;
    pid_t keeper_;
    int control_fd_;
    int event_fd_;
    int exec_fd_;
    int fds_[2];
    bool event_ready_ = false;
    bool pid_reported_ = false;
    bool keeper_killed_ = false;
    bool gave_up_ = false;  // the keeper did not end within kKillGrace of a kill
    bool ended_ = false;
    Clock::time_point ended_at_ = kNever;
    Clock::time_point kill_sent_ = kNever;
    ProcessCounter counter_;
    Tail out_;
    Tail err_;
};

}  // namespace

namespace {

// The C-level sandbox setup of `spec` (its strings live in `strings`), or nullptr.
const SandboxSetup* prepare_sandbox(const ProcessSpec& spec, SandboxSetup& setup,
                                    SandboxGrant& grant, std::vector<std::string>& strings,
                                    int sync_fd) {
    if (!spec.sandbox) return nullptr;
    const SandboxMounts& m = *spec.sandbox;
    strings = {m.program_dir.string(), m.program_name, m.tree.string(), m.out_dir.string()};
    const auto c = [&](std::size_t i) { return strings[i].empty() ? nullptr : strings[i].c_str(); };
    setup.program_dir = c(0);
    setup.program_name = c(1);
    setup.tree = c(2);
    setup.out_dir = c(3);
    if (m.fixed.any()) {
        const std::string_view lib = fixed_inputs_library();
        setup.library = reinterpret_cast<const unsigned char*>(lib.data());
        setup.library_size = lib.size();
    }
    setup.fixed_random = m.fixed.random;
    setup.sync_fd = sync_fd;
    grant = {.identity = m.identity,
             .uid = m.uid,
             .gid = m.gid,
             .handover = m.handover,
             .program_dir = m.handover ? setup.program_dir : nullptr,
             .idmap_program = m.idmap_program,
             .tree = m.handover ? setup.tree : nullptr,
             .idmap_tree = m.idmap_tree,
             .out_dir = m.handover ? setup.out_dir : nullptr,
             .idmap_tops = m.idmap_tops};
    return &setup;
}

// Opens the program's stdin into `in`. A FIFO is opened without blocking (an open for reading
// waits for a writer, and SA_RESTART restarts it however long that takes) and then waited on
// until a writer wrote to it or closed it, bounded by the timeout and Ctrl-C; false when the
// timeout passed first. Throws UsageError when the file cannot be opened.
bool open_stdin(const ProcessSpec& spec, Fd& in) {
    const std::string path = spec.stdin_path.empty() ? "/dev/null" : spec.stdin_path;
    in.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (in.get() < 0) {
        throw UsageError(fmt::format("cannot open stdin file {}: {}", path, strerror(errno)),
                         "check the stdin path");
    }
    struct stat st {};
    if (::fstat(in.get(), &st) == 0 && S_ISFIFO(st.st_mode)) {
        const auto deadline =
            spec.timeout_seconds
                ? Clock::now() +
                      std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(std::min(*spec.timeout_seconds, 1e9)))
                : kNever;
        const bool interruptible = !spec.uninterruptible && interrupt_fd() >= 0;
        for (bool ready = false; !ready;) {
            if (!spec.uninterruptible) throw_if_interrupted();
            const auto now = Clock::now();
            if (now >= deadline) return false;
            pollfd p[2] = {{in.get(), POLLIN, 0}, {interrupt_fd(), POLLIN, 0}};
            const auto left =
                std::clamp<Clock::duration>(deadline - now, {}, std::chrono::seconds(1));
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
            ready =
                ::poll(p, interruptible ? 2 : 1, static_cast<int>(ms) + 1) > 0 && p[0].revents != 0;
        }
    }
    const int flags = ::fcntl(in.get(), F_GETFL);
    if (flags >= 0) ::fcntl(in.get(), F_SETFL, flags & ~O_NONBLOCK);
    return true;
}

}  // namespace

ProcessOutcome PosixProcessRunner::run(const ProcessSpec& spec) {
    if (!spec.uninterruptible) throw_if_interrupted();
    Fd in;
    if (!open_stdin(spec, in)) {
        ProcessOutcome outcome;
        outcome.how = Termination::TimedOut;
        outcome.stdin_unwritten = true;
        outcome.wall_seconds = spec.timeout_seconds.value_or(0);
        return outcome;
    }
    Pipe out, err, exec_status, events, control;
    SocketPair sync;
    auto argv = c_strings(spec.argv);
    auto envp = c_strings(spec.env);
    SandboxSetup sandbox_setup;
    SandboxGrant grant;
    std::vector<std::string> sandbox_strings;
    const KeeperSetup setup{
        argv.data(),
        envp.data(),
        spec.cwd.empty() ? nullptr : spec.cwd.c_str(),
        spec.disable_aslr,
        ::getpid(),
        prepare_sandbox(spec, sandbox_setup, grant, sandbox_strings, sync.read.get()),
        in.get(),
        out.write.get(),
        err.write.get(),
        exec_status.write.get(),
        events.write.get(),
        control.read.get()};

    const auto start = Clock::now();
    const pid_t keeper = spec.sandbox ? clone_sandboxed() : ::fork();
    if (keeper < 0) throw EnvironmentError(fmt::format("fork() failed: {}", strerror(errno)));
    if (keeper == 0) keeper_main(setup);
    for (Fd* fd :
         {&out.write, &err.write, &exec_status.write, &events.write, &control.read, &sync.read})
        fd->reset();
    int grant_err = 0;
    std::string grant_step;
    if (spec.sandbox) {
        // The keeper waits for its id maps (only cgbench, outside, may write them) and for
        // the mounts root hands it; when this fails, the keeper reports the sandbox failed.
        const char* step = "";
        grant_err = grant_sandbox(keeper, sync.write.get(), grant, &step);
        if (grant_err != 0) grant_step = step;
    }
    sync.write.reset();

    ProcessOutcome outcome;
    Session session(spec, keeper,
                    {out.read.get(), err.read.get(), exec_status.read.get(), events.read.get(),
                     control.write.get()});
    if (grant_err != 0)
        session.set_grant_failure(fmt::format("{}: {}", grant_step, strerror(grant_err)));
    session.wait(outcome, start);
    if (!outcome.spawn_step.empty()) outcome.how = Termination::SpawnFailed;
    return outcome;
}

std::string describe_signal(int signo) {
    const char* abbrev = sigabbrev_np(signo);
    const char* text = sigdescr_np(signo);
    if (abbrev == nullptr) return fmt::format("signal {}", signo);
    return fmt::format("{} (SIG{})", text ? text : "unknown", abbrev);
}

}  // namespace cgbench::exec
