#include "exec/staging.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "base/errors.hpp"
#include "exec/interrupt.hpp"
#include "util/hash.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOutPrefix = "out.";
constexpr const char* kLockSuffix = ".lock";
// An output directory without its lock file is a run killed while creating it; anything
// younger may be one being created right now.
constexpr auto kUnlockedGrace = std::chrono::hours(1);
// How long a run waits for a link another run of the caller is removing.
constexpr int kLockAttempts = 500;
constexpr auto kLockPause = std::chrono::milliseconds(10);

std::string errno_text(int err = errno) {
    return strerror(err);
}

// A directory of the caller's own at `path`, mode 0700, created when missing. False with
// errno set when it cannot be made (EEXIST: it is not a directory of the caller's).
bool own_private_dir(const fs::path& path) {
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return false;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return false;
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
        errno = EEXIST;
        return false;
    }
    if ((st.st_mode & 07777) != 0700 && ::chmod(path.c_str(), 0700) != 0) return false;
    return true;
}

struct Root {
    fs::path path;
    std::string note;
    bool temporary = false;  // a per-process mkdtemp directory, removed at exit
};

// Removes a per-process staging directory when cgbench exits.
struct RemovedAtExit {
    fs::path path;
    ~RemovedAtExit() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

// Where private directories may go: /tmp, then $TMPDIR (when /tmp cannot be written).
std::vector<fs::path> staging_bases() {
    std::vector<fs::path> out = {"/tmp"};
    const char* tmpdir = std::getenv("TMPDIR");
    if (tmpdir != nullptr && tmpdir[0] == '/' && fs::path(tmpdir) != out.front()) {
        out.emplace_back(tmpdir);
    }
    return out;
}

Root make_root() {
    const std::string name = fmt::format("cgbench-{}", ::geteuid());
    std::string why;
    for (const fs::path& base : staging_bases()) {
        const fs::path fixed = base / name;
        Root r;
        if (own_private_dir(fixed)) {
            r.path = fixed;
            if (!why.empty()) r.note = why + "; staged under " + fixed.string();
            return r;
        }
        const int err = errno;
        if (err == EEXIST) {
            std::string pattern = fixed.string() + ".XXXXXX";
            if (::mkdtemp(pattern.data()) != nullptr) {
                r.path = pattern;
                r.temporary = true;
                r.note = fmt::format(
                    "{} is not a private directory of this user (another user made it?), so "
                    "this run was staged under {}, a new name each time",
                    fixed.string(), r.path.string());
                return r;
            }
        }
        if (why.empty()) why = fmt::format("cannot use {}: {}", fixed.string(), errno_text(err));
    }
    throw EnvironmentError(fmt::format("cannot create a private staging directory: {}", why),
                           "make /tmp writable, or set TMPDIR to a writable directory");
}

const Root& root() {
    static const Root r = make_root();
    static const RemovedAtExit remove{r.temporary ? r.path : fs::path()};
    return r;
}

// Opens `path` for a lock without following links or blocking on FIFOs; -1 with errno set
// when it is not a regular file.
int open_lock(const fs::path& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) return -1;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int lock(int fd, int how) {
    int r = 0;
    while ((r = ::flock(fd, how)) != 0 && errno == EINTR) {
    }
    return r;
}

// Whether `fd` still is the file at `path` (not removed and recreated meanwhile).
bool still_at(int fd, const fs::path& path) {
    struct stat a {}, b {};
    return ::fstat(fd, &a) == 0 && ::lstat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

bool owned_by_caller(const fs::path& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 && st.st_uid == ::geteuid();
}

// Takes a shared lock on `fd`, waiting (boundedly, ending on Ctrl-C) while another run of the
// caller holds it exclusively to remove the link.
bool lock_shared(int fd) {
    for (int attempt = 0; attempt < kLockAttempts; ++attempt) {
        if (lock(fd, LOCK_SH | LOCK_NB) == 0) return true;
        if (errno != EWOULDBLOCK) return false;
        throw_if_interrupted();
        std::this_thread::sleep_for(kLockPause);
    }
    errno = EWOULDBLOCK;
    return false;
}

// Whether `link` is the symlink to `target`, after removing anything else of the caller's
// that stands there (a link left by a killed run to another target).
bool usable_link(const fs::path& link, const fs::path& target) {
    std::error_code ec;
    if (fs::read_symlink(link, ec) == target && !ec) return true;
    if (owned_by_caller(link)) ::unlink(link.c_str());
    return false;
}

}  // namespace

const fs::path& staging_root() {
    return root().path;
}

const std::string& staging_note() {
    return root().note;
}

std::string link_name(const fs::path& target, std::size_t min_length) {
    std::string name = util::hex64(util::fnv1a64(target.string()));
    if (name.size() < min_length) name.append(min_length - name.size(), '_');
    return name;
}

OutputDir::OutputDir() {
    std::string pattern = (staging_root() / (std::string(kOutPrefix) + "XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw EnvironmentError(
            fmt::format("cannot create a directory under {}: {}", staging_root().string(),
                        errno_text()),
            "free space in /tmp (or $TMPDIR), or make it writable");
    }
    path_ = pattern;
    // Locked before it gets its name, so a cleaner never sees an unlocked "lock".
    const fs::path tmp = path_ / "lock.new";
    lock_fd_ = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (lock_fd_ < 0 || lock(lock_fd_, LOCK_EX) != 0 ||
        ::rename(tmp.c_str(), (path_ / "lock").c_str()) != 0) {
        const std::string why = errno_text();
        std::error_code ec;
        fs::remove_all(path_, ec);
        if (lock_fd_ >= 0) ::close(lock_fd_);
        throw EnvironmentError(fmt::format("cannot lock {}: {}", path_.string(), why));
    }
}

OutputDir::~OutputDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
    ::close(lock_fd_);
}

ProgramLink::ProgramLink(const fs::path& target, std::size_t min_name_length) {
    const std::string name = link_name(target, min_name_length);
    path_ = staging_root() / name;
    lock_path_ = staging_root() / (name + kLockSuffix);
    int err = 0;
    for (int attempt = 0; attempt < 20; ++attempt) {
        lock_fd_ = open_lock(lock_path_, O_RDONLY | O_CREAT);
        if (lock_fd_ < 0 || !lock_shared(lock_fd_)) {
            err = errno;
            break;
        }
        if (still_at(lock_fd_, lock_path_)) {
            if (::symlink(target.c_str(), path_.c_str()) == 0) return;
            err = errno;
            if (usable_link(path_, target)) return;
        }
        ::close(lock_fd_);  // removed by its last user meanwhile, or a stale link: again
        lock_fd_ = -1;
    }
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw EnvironmentError(fmt::format("cannot create the program link {}: {}", path_.string(),
                                       errno_text(err)),
                           fmt::format("remove {} (cgbench recreates it)", path_.string()));
}

ProgramLink::~ProgramLink() {
    // The last user (no other shared lock) removes the link and its lock file.
    if (lock(lock_fd_, LOCK_EX | LOCK_NB) == 0 && still_at(lock_fd_, lock_path_)) {
        if (owned_by_caller(path_)) ::unlink(path_.c_str());
        ::unlink(lock_path_.c_str());
    }
    ::close(lock_fd_);
}

namespace {

// Removes the output directory `dir` when no live run holds its lock.
bool remove_stale_output(const fs::path& dir) {
    const int fd = open_lock(dir / "lock", O_RDONLY);
    if (fd < 0) {
        std::error_code ec;
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(dir, ec);
        if (ec || age < kUnlockedGrace) return false;
    } else if (lock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return false;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (fd >= 0) ::close(fd);
    return !ec;
}

// Removes the link whose lock file is `lock_file` when no live run holds it.
bool remove_stale_link(const fs::path& lock_file) {
    const int fd = open_lock(lock_file, O_RDONLY);
    if (fd < 0) return false;
    bool removed = false;
    if (lock(fd, LOCK_EX | LOCK_NB) == 0 && still_at(fd, lock_file)) {
        std::string link = lock_file.string();
        link.resize(link.size() - std::string_view(kLockSuffix).size());
        if (owned_by_caller(link)) ::unlink(link.c_str());
        removed = ::unlink(lock_file.c_str()) == 0;
    }
    ::close(fd);
    return removed;
}

}  // namespace

int clean_stale_staging() {
    int removed = 0;
    try {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(staging_root(), ec)) {
            const fs::path p = entry.path();
            const std::string name = p.filename().string();
            if (!owned_by_caller(p)) continue;
            if (name.rfind(kOutPrefix, 0) == 0 && entry.is_directory(ec)) {
                removed += remove_stale_output(p) ? 1 : 0;
            } else if (name.size() > 5 && name.ends_with(kLockSuffix)) {
                removed += remove_stale_link(p) ? 1 : 0;
            }
        }
    } catch (const std::exception&) {
        // Cleaning is best effort; a run must not fail because of someone else's leftovers.
    }
    return removed;
}

}  // namespace cgbench::exec
