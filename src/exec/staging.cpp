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
#include <mutex>

#include "base/errors.hpp"
#include "util/hash.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSharedRoot = "/tmp/cgbench";
constexpr const char* kOutPrefix = "out.";
constexpr const char* kLockSuffix = ".lock";
// An output directory without its lock file is a run killed while creating it; anything
// younger may be one being created right now.
constexpr auto kUnlockedGrace = std::chrono::hours(1);

std::string errno_text() {
    return strerror(errno);
}

// Whether `st` may hold entries the caller relies on: owned by root or the caller, and if
// others may write into it, sticky (so they cannot remove or replace the caller's entries).
bool trusted_dir(const struct stat& st) {
    if (!S_ISDIR(st.st_mode)) return false;
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) return false;
    return (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 || (st.st_mode & S_ISVTX) != 0;
}

bool usable_root(const char* path, mode_t mode) {
    if (::mkdir(path, mode) == 0) {
        ::chmod(path, mode);  // mkdir applies the umask
    } else if (errno != EEXIST) {
        return false;
    }
    struct stat st {};
    return ::lstat(path, &st) == 0 && trusted_dir(st) && ::access(path, W_OK | X_OK) == 0;
}

struct Root {
    fs::path path;
    bool is_private = false;
};

fs::path private_root_path() {
    return fmt::format("{}-{}", kSharedRoot, ::geteuid());
}

const Root& root() {
    static const Root r = [] {
        if (usable_root(kSharedRoot, 01777)) return Root{kSharedRoot, false};
        const fs::path own = private_root_path();
        struct stat st {};
        if (usable_root(own.c_str(), 0700) && ::lstat(own.c_str(), &st) == 0 &&
            st.st_uid == ::geteuid() && (st.st_mode & 077) == 0) {
            return Root{own, true};
        }
        throw EnvironmentError(
            fmt::format("cannot use {} or {} for staging", kSharedRoot, own.string()),
            "cgbench needs a writable /tmp; remove or fix the ownership of those directories");
    }();
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

// What stands at `link`: the symlink to `target` that the caller may use, nothing, or
// something else (another user's link, or a foreign file).
enum class LinkState { Usable, Missing, Foreign, OwnStale };

LinkState link_state(const fs::path& link, const fs::path& target) {
    struct stat st {};
    if (::lstat(link.c_str(), &st) != 0) return LinkState::Missing;
    const bool ours = st.st_uid == ::geteuid();
    if (!ours && st.st_uid != 0) return LinkState::Foreign;
    std::error_code ec;
    if (S_ISLNK(st.st_mode) && fs::read_symlink(link, ec) == target && !ec) {
        return LinkState::Usable;
    }
    return ours ? LinkState::OwnStale : LinkState::Foreign;
}

}  // namespace

const fs::path& staging_root() {
    return root().path;
}

bool staging_is_private() {
    return root().is_private;
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
            "cgbench needs a writable /tmp");
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
    for (const fs::path& dir : {staging_root(), private_root_path()}) {
        if (dir != staging_root() && !usable_root(dir.c_str(), 0700)) break;
        path_ = dir / name;
        lock_path_ = dir / (name + kLockSuffix);
        for (int attempt = 0; attempt < 20; ++attempt) {
            lock_fd_ = open_lock(lock_path_, O_RDONLY | O_CREAT);
            if (lock_fd_ < 0) break;  // a foreign file: try the private area
            if (lock(lock_fd_, LOCK_SH) != 0 || !still_at(lock_fd_, lock_path_)) {
                ::close(lock_fd_);  // removed by its last user meanwhile: take a new one
                lock_fd_ = -1;
                continue;
            }
            if (::symlink(target.c_str(), path_.c_str()) == 0) return;
            const LinkState state = link_state(path_, target);
            if (state == LinkState::Usable) return;
            if (state == LinkState::OwnStale) ::unlink(path_.c_str());
            ::close(lock_fd_);
            lock_fd_ = -1;
            if (state == LinkState::Foreign) break;
        }
    }
    throw EnvironmentError(
        fmt::format("cannot create the program link {} (not writable, or held by another user)",
                    path_.string()),
        "remove stale entries under /tmp/cgbench");
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
