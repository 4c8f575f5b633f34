#include "exec/sandbox_setup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>

// Only async-signal-safe calls in the child's half: it runs after a clone of a multi-threaded
// process.

namespace cgbench::exec {

namespace {

constexpr int kNamespaces = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS;
constexpr std::size_t kRandomBytes = 1 << 20;  // what /dev/urandom gives with --fixed-random

// The parts cgbench may hand over as mounts, in the order of the go message.
enum HandedPart : int { kHandedProgram, kHandedTree, kHandedOut, kHandedParts };
constexpr int kMaxHandedTops = 48;  // top-level directories handed over, at most

// The mounts cgbench hands over: the parts (-1: none) and top-level directories by name.
struct Handed {
    int parts[kHandedParts] = {-1, -1, -1};
    int tops = 0;
    int top_fds[kMaxHandedTops] = {};
    char names[2048] = {};  // the top-level directories' names, each ended by '\0'
    // The mount handed over for top-level entry `name`, or -1.
    int top(const char* name) const {
        const char* at = names;
        for (int i = 0; i < tops; at += std::strlen(at) + 1, ++i) {
            if (std::strcmp(at, name) == 0) return top_fds[i];
        }
        return -1;
    }
};

// The go message: 'M' (or 'X': cgbench failed), for each part whether its mount follows,
// how many top-level directories follow and their names; the descriptors come in that order.
struct GoMessage {
    char go = 'X';
    char has[kHandedParts] = {};
    int tops = 0;
    char names[sizeof Handed::names] = {};
};

// A path built without allocating; `overflow` once it no longer fits.
struct PathBuf {
    char data[4096] = {};
    std::size_t size = 0;
    bool overflow = false;
    PathBuf& operator<<(const char* s) {
        for (; *s != '\0'; ++s) {
            if (size + 1 >= sizeof data) {
                overflow = true;
                break;
            }
            data[size++] = *s;
        }
        data[size] = '\0';
        return *this;
    }
    const char* c_str() const { return data; }
};

// The entry a failed step concerns (the child is single-threaded).
PathBuf step_path;

bool is_dot(const char* name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

int write_file(const char* path, const void* data, std::size_t n, mode_t mode) {
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) return -1;
    const bool ok = write_all(fd, data, n);
    ::close(fd);
    return ok ? 0 : -1;
}

// 1 MiB of a fixed splitmix64 stream at `path`.
int write_seeded(const char* path) {
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
    if (fd < 0) return -1;
    std::uint64_t state = 0x6367626e63680001ULL;
    std::uint64_t block[1024];
    bool ok = true;
    for (std::size_t done = 0; ok && done < kRandomBytes; done += sizeof block) {
        for (auto& v : block) {
            std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            v = z ^ (z >> 31);
        }
        ok = write_all(fd, block, sizeof block);
    }
    ::close(fd);
    return ok ? 0 : -1;
}

int bind(const char* from, const char* to, bool recursive) {
    // (glibc 2.43 declares MS_REC in an enum: the flags are combined without a conditional.)
    unsigned long flags = MS_BIND;
    if (recursive) flags |= MS_REC;
    return ::mount(from, to, nullptr, flags, nullptr);
}

// An empty file or directory at `to` (like `from`), with `from` bound on it.
int bind_entry(const char* from, const char* to, bool is_dir) {
    if (is_dir) {
        if (::mkdir(to, 0755) != 0 && errno != EEXIST) return -1;
    } else if (write_file(to, "", 0, 0644) != 0) {
        return -1;
    }
    return bind(from, to, is_dir);
}

// Moves the mount `fd` cgbench handed over to `to` (a new directory).
int mount_handed(int fd, const char* to) {
    const int r =
        ::mkdir(to, 0755) != 0 ? -1 : ::move_mount(fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH);
    const int err = errno;
    ::close(fd);
    errno = err;
    return r;
}

// The machine's top-level entries, from /oldroot into /newroot: directories and files bound,
// links copied, /proc mounted anew for the pid namespace (the host's when that is refused).
int populate(const Handed& handed, const char** step, bool* own_proc) {
    const int dir = ::open("/oldroot", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    *step = "open /";
    if (dir < 0) return -1;
    alignas(8) char ents[8192];
    ssize_t n = 0;
    int result = 0;
    while (result == 0 && (n = ::syscall(SYS_getdents64, dir, ents, sizeof ents)) > 0) {
        for (ssize_t off = 0; result == 0 && off < n;) {
            const auto reclen = *reinterpret_cast<unsigned short*>(ents + off + 16);
            const char* name = ents + off + 19;
            off += reclen;
            if (is_dot(name) || std::strcmp(name, "cgbench") == 0) continue;
            PathBuf from, to;
            from << "/oldroot/" << name;
            to << "/newroot/" << name;
            struct stat st {};
            if (from.overflow || to.overflow || ::lstat(from.c_str(), &st) != 0) continue;
            step_path = PathBuf();
            step_path << "bind " << from.c_str() + 8;
            *step = step_path.c_str();
            if (const int fd = handed.top(name); fd >= 0 && S_ISDIR(st.st_mode)) {
                result = mount_handed(fd, to.c_str());
            } else if (S_ISLNK(st.st_mode)) {
                char target[4096];
                const ssize_t len = ::readlink(from.c_str(), target, sizeof target - 1);
                if (len < 0) continue;
                target[len] = '\0';
                result = ::symlink(target, to.c_str());
            } else if (S_ISDIR(st.st_mode) && std::strcmp(name, "proc") == 0) {
                result = ::mkdir(to.c_str(), 0555);
                *own_proc = result == 0 && ::mount("proc", to.c_str(), "proc",
                                                   MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
                if (result == 0 && !*own_proc) result = bind(from.c_str(), to.c_str(), true);
            } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
                result = bind_entry(from.c_str(), to.c_str(), S_ISDIR(st.st_mode));
            }
        }
    }
    ::close(dir);
    return result;
}

// /cgbench: the program's directory, the tree, the output directory (bound from the host, or
// the mounts in `handed`), the library and the seeded random stream.
int stage(const SandboxSetup& s, const Handed& h, const char** step) {
    const auto fail = [&](const char* what) {
        *step = what;
        return -1;
    };
    if (::mkdir("/newroot/cgbench", 0755) != 0) return fail("mkdir /cgbench");
    struct Part {
        const char* host;
        const char* name;
        int fd;
    };
    const Part parts[] = {{s.program_dir, s.program_name, h.parts[kHandedProgram]},
                          {s.tree, "tree", h.parts[kHandedTree]},
                          {s.out_dir, "out", h.parts[kHandedOut]}};
    for (const Part& p : parts) {
        if (p.name == nullptr || (p.host == nullptr && p.fd < 0)) continue;
        PathBuf from, to;
        from << "/oldroot" << (p.host != nullptr ? p.host : "");
        to << "/newroot/cgbench/" << p.name;
        if (from.overflow || to.overflow) return fail("a path too long to stage");
        if (p.fd >= 0 ? mount_handed(p.fd, to.c_str()) != 0
                      : bind_entry(from.c_str(), to.c_str(), true) != 0) {
            return fail(p.host != nullptr ? p.host : p.name);
        }
    }
    if (s.library != nullptr) {
        if (::mkdir("/newroot/cgbench/lib", 0755) != 0) return fail("mkdir /cgbench/lib");
        PathBuf lib;
        lib << "/newroot" << kSandboxLibrary;
        if (write_file(lib.c_str(), s.library, s.library_size, 0555) != 0) {
            return fail("write the fixed-inputs library");
        }
    }
    if (s.fixed_random) {
        if (write_seeded("/newroot/cgbench/random") != 0) return fail("write /cgbench/random");
        for (const char* dev : {"/newroot/dev/urandom", "/newroot/dev/random"}) {
            if (bind("/newroot/cgbench/random", dev, false) != 0) return fail(dev + 8);
        }
    }
    return 0;
}

// Mounts a tmpfs over /tmp (only in this namespace) and makes it the root, with the old root
// at /oldroot and an empty /newroot, bound on itself, to fill.
int scratch_root(const char** step) {
    *step = "make the mounts private";
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) return -1;
    *step = "mount a tmpfs";
    if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m") != 0) {
        return -1;
    }
    *step = "pivot_root";
    if (::chdir("/tmp") != 0 || ::mkdir("newroot", 0755) != 0 ||
        bind("newroot", "newroot", true) != 0 || ::mkdir("oldroot", 0755) != 0 ||
        ::syscall(SYS_pivot_root, ".", "oldroot") != 0 || ::chdir("/") != 0) {
        return -1;
    }
    return 0;
}

// `child` as the mounted /proc numbers it: cgbench may itself run in a pid namespace whose
// /proc is the machine's (a container, `unshare --pid`). A pidfd's fdinfo says ("Pid:").
pid_t proc_pid(pid_t child) {
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
    if (fd < 0) return child;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    char text[1024] = {};
    const int info = ::open(path, O_RDONLY | O_CLOEXEC);
    const ssize_t n = info < 0 ? -1 : ::read(info, text, sizeof text - 1);
    if (info >= 0) ::close(info);
    ::close(fd);
    const char* at = n > 0 ? std::strstr(text, "\nPid:") : nullptr;
    const long pid = at != nullptr ? std::strtol(at + 5, nullptr, 10) : 0;
    return pid > 0 ? static_cast<pid_t>(pid) : child;
}

}  // namespace

pid_t clone_sandboxed() {
    return static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD | kNamespaces, 0, 0, 0, 0));
}

namespace {

// Writes `child`'s setgroups file and id maps as `g` says.
int write_id_maps(pid_t child, const SandboxGrant& g, const char** step) {
    char path[64];
    char map[64];
    const pid_t pid = proc_pid(child);
    const auto put = [&](const char* file, const char* text) {
        std::snprintf(path, sizeof path, "/proc/%d/%s", static_cast<int>(pid), file);
        *step = "writing the uid/gid map";
        const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0) return false;
        const bool ok = write_all(fd, text, std::strlen(text));
        const int err = errno;
        ::close(fd);
        errno = err;
        return ok;
    };
    // A one-id map needs setgroups denied unless the writer is root; root's keeper clears its
    // groups instead (enter_sandbox), so that root's group gives the program nothing.
    if (::geteuid() != 0 && !put("setgroups", "deny")) return errno;
    std::snprintf(map, sizeof map, g.identity ? "0 0 4294967295" : "0 %u 1", g.uid);
    if (!put("uid_map", map)) return errno;
    std::snprintf(map, sizeof map, g.identity ? "0 0 4294967295" : "0 %u 1", g.gid);
    return put("gid_map", map) ? 0 : errno;
}

// A detached copy of the mount tree at `path` (open_tree), id-mapped through `userns` when
// `idmap` (on-disk root becomes the sandbox's uid 0); -1 with errno when refused.
int clone_mount(const char* path, bool idmap, int userns) {
    const int fd = ::open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    if (fd < 0 || !idmap) return fd;
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_IDMAP;
    attr.userns_fd = static_cast<std::uint64_t>(userns);
    if (::mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) == 0) return fd;
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
}

// Whether top-level directory `name` holds the machine's files, which the sandbox shows as
// they are (root's as the overflow id), or may hold root's own, which it id-maps.
bool machine_top(const char* name) {
    for (const char* m : {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt",
                          "var", "boot", "dev", "proc", "sys", "run", "snap", "nix", "cgbench"}) {
        if (std::strcmp(name, m) == 0) return true;
    }
    return false;
}

// Id-mapped copies of the top-level directories that may hold root's own files (/root,
// /home, /tmp, a CI workspace), into `h`; one that cannot be id-mapped is bound as it is.
void hand_tops(int userns, Handed& h) {
    DIR* root = ::opendir("/");
    if (root == nullptr) return;
    std::size_t used = 0;
    for (dirent* e; (e = ::readdir(root)) != nullptr && h.tops < kMaxHandedTops;) {
        const std::size_t len = std::strlen(e->d_name);
        if (is_dot(e->d_name) || machine_top(e->d_name) || used + len + 1 > sizeof h.names)
            continue;
        PathBuf path;
        path << "/" << e->d_name;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        const int fd = clone_mount(path.c_str(), true, userns);
        if (fd < 0) continue;
        std::memcpy(h.names + used, e->d_name, len + 1);
        used += len + 1;
        h.top_fds[h.tops++] = fd;
    }
    ::closedir(root);
}

// The mounts root hands over, into `h`. The program's directory and the tree fall back to a
// plain copy on a file system without id-mapped mounts (its files then show as the overflow
// id, as another user's do); the output directory must be writable.
int make_mounts(pid_t child, const SandboxGrant& g, Handed& h, const char** step) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/ns/user", static_cast<int>(proc_pid(child)));
    *step = "opening the user namespace";
    const int userns = ::open(path, O_RDONLY | O_CLOEXEC);
    if (userns < 0) return errno;
    struct Part {
        const char* path;
        bool idmap;
        const char* what;
    };
    const Part parts[kHandedParts] = {
        {g.program_dir, g.idmap_program, "cloning the program's directory"},
        {g.tree, g.idmap_tree, "cloning the project's tree"},
        {g.out_dir, true, "id-mapping the output directory"}};
    int err = 0;
    for (int i = 0; i < kHandedParts && err == 0; ++i) {
        if (parts[i].path == nullptr) continue;
        *step = parts[i].what;
        int& fd = h.parts[i];
        fd = clone_mount(parts[i].path, parts[i].idmap, userns);
        if (fd < 0 && parts[i].idmap && i != kHandedOut)
            fd = clone_mount(parts[i].path, false, userns);
        if (fd < 0) err = errno;
    }
    if (err == 0 && g.idmap_tops) hand_tops(userns, h);
    ::close(userns);
    return err;
}

// Sends the go message, with the mounts of `h` when `ok`.
void send_go(int sync_fd, bool ok, const Handed& h) {
    GoMessage m;
    m.go = ok ? 'M' : 'X';
    int sent[kHandedParts + kMaxHandedTops];
    std::size_t n = 0;
    for (int i = 0; ok && i < kHandedParts; ++i) {
        m.has[i] = h.parts[i] >= 0 ? 1 : 0;
        if (h.parts[i] >= 0) sent[n++] = h.parts[i];
    }
    if (ok) {
        m.tops = h.tops;
        std::memcpy(m.names, h.names, sizeof m.names);
        for (int i = 0; i < h.tops; ++i)
            sent[n++] = h.top_fds[i];
    }
    iovec iov{&m, sizeof m};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof sent)] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (n > 0) {
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(n * sizeof(int));
        auto* c = reinterpret_cast<cmsghdr*>(control);  // CMSG_FIRSTHDR, never null here
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(n * sizeof(int));
        std::memcpy(CMSG_DATA(c), sent, n * sizeof(int));
    }
    while (::sendmsg(sync_fd, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

// The child's side of send_go: 0 and the mounts in `h`, or ECHILD when cgbench could not
// map the ids or is gone.
int receive_go(int sync_fd, Handed& h) {
    GoMessage m;
    int got[kHandedParts + kMaxHandedTops];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof got)] = {};
    iovec iov{&m, sizeof m};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = 0;
    while ((n = ::recvmsg(sync_fd, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    std::size_t count = 0;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); n > 0 && c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < k && count < std::size(got); ++i)
            std::memcpy(&got[count++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
    }
    std::size_t next = 0;
    for (int i = 0; i < kHandedParts; ++i)
        h.parts[i] = m.has[i] != 0 && next < count ? got[next++] : -1;
    h.tops = 0;
    for (int i = 0; i < m.tops && i < kMaxHandedTops && next < count; ++i)
        h.top_fds[h.tops++] = got[next++];
    std::memcpy(h.names, m.names, sizeof h.names);
    h.names[sizeof h.names - 1] = '\0';
    return n > 0 && m.go == 'M' ? 0 : ECHILD;
}

}  // namespace

int grant_sandbox(pid_t child, int sync_fd, const SandboxGrant& grant, const char** step) {
    Handed h;
    int err = write_id_maps(child, grant, step);
    if (err == 0 && grant.handover) err = make_mounts(child, grant, h, step);
    send_go(sync_fd, err == 0, h);
    for (const int fd : h.parts) {
        if (fd >= 0) ::close(fd);
    }
    for (int i = 0; i < h.tops; ++i)
        ::close(h.top_fds[i]);
    return err;
}

int enter_sandbox(const SandboxSetup& s, const char** step, bool* own_proc) {
    Handed handed;
    *step = "wait for the id maps";
    if (receive_go(s.sync_fd, handed) != 0) return ECHILD;  // cgbench failed, or is gone
    // Become uid and gid 0 of the namespace: root's keeper is still outer root, which its map
    // leaves out, and files are made with the process's ids (EOVERFLOW for unmapped ones).
    *step = "become uid 0 of the namespace";
    // Raw system calls: glibc's wrappers make every thread of the process change its ids, and
    // wait for the threads of cgbench this clone copied the list of, for ever.
    ::syscall(SYS_setgroups, 0, nullptr);  // a user's map denies it: its groups stay (65534)
    if (::syscall(SYS_setresgid, 0, 0, 0) != 0 || ::syscall(SYS_setresuid, 0, 0, 0) != 0) {
        return errno;
    }
    *own_proc = false;
    if (scratch_root(step) != 0 || populate(handed, step, own_proc) != 0 ||
        stage(s, handed, step) != 0) {
        return errno;
    }
    *step = "pivot_root";
    if (::chdir("/newroot") != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0 ||
        ::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0) {
        return errno;
    }
    // The staging itself is read-only to the program (what is bound into it keeps its mode).
    *step = "remount / read-only";
    if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
        return errno;
    }
    *step = "sethostname";
    if (::sethostname("cgbench", 7) != 0) return errno;
    return 0;
}

}  // namespace cgbench::exec
