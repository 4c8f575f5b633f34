#include "exec/sandbox_setup.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

// Only async-signal-safe calls in the child's half: it runs after a clone of a multi-threaded
// process.

namespace cgbench::exec {

namespace {

constexpr int kNamespaces = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS;
constexpr std::size_t kRandomBytes = 1 << 20;  // what /dev/urandom gives with --fixed-random

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
    return ::mount(from, to, nullptr, MS_BIND | (recursive ? MS_REC : 0), nullptr);
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

// The machine's top-level entries, from /oldroot into /newroot: directories and files bound,
// links copied, /proc mounted anew for the pid namespace (the host's when that is refused).
int populate(const char** step, bool* own_proc) {
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
            if (S_ISLNK(st.st_mode)) {
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

// /cgbench: the program's directory, the tree, the output directory, the library and the
// seeded random stream.
int stage(const SandboxSetup& s, const char** step) {
    const auto fail = [&](const char* what) {
        *step = what;
        return -1;
    };
    if (::mkdir("/newroot/cgbench", 0755) != 0) return fail("mkdir /cgbench");
    struct Part {
        const char* host;
        const char* name;
        bool recursive;
    };
    const Part parts[] = {{s.program_dir, s.program_name, true}, {s.tree, "tree", true},
                          {s.out_dir, "out", false}};
    for (const Part& p : parts) {
        if (p.host == nullptr || p.name == nullptr) continue;
        PathBuf from, to;
        from << "/oldroot" << p.host;
        to << "/newroot/cgbench/" << p.name;
        if (from.overflow || to.overflow) return fail("a path too long to stage");
        if (bind_entry(from.c_str(), to.c_str(), true) != 0) return fail(p.host);
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

bool write_id_maps(pid_t child) {
    char path[64];
    char map[64];
    const bool root = ::geteuid() == 0;
    const pid_t pid = proc_pid(child);
    const auto put = [&](const char* file, const char* text) {
        std::snprintf(path, sizeof path, "/proc/%d/%s", static_cast<int>(pid), file);
        const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0) return false;
        const bool ok = write_all(fd, text, std::strlen(text));
        const int err = errno;
        ::close(fd);
        errno = err;
        return ok;
    };
    // An unprivileged caller may map only itself, and only once setgroups is denied.
    if (!root && !put("setgroups", "deny")) return false;
    std::snprintf(map, sizeof map, root ? "0 0 4294967295" : "0 %u 1", ::geteuid());
    if (!put("uid_map", map)) return false;
    std::snprintf(map, sizeof map, root ? "0 0 4294967295" : "0 %u 1", ::getegid());
    return put("gid_map", map);
}

int enter_sandbox(const SandboxSetup& s, const char** step, bool* own_proc) {
    char go = 0;
    *step = "wait for the id maps";
    while (::read(s.sync_fd, &go, 1) < 0 && errno == EINTR) {
    }
    if (go != 'M') return ECHILD;  // cgbench could not map the ids, or is gone
    *own_proc = false;
    if (scratch_root(step) != 0 || populate(step, own_proc) != 0 || stage(s, step) != 0) {
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
