#include "util/fs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "base/errors.hpp"
#include "util/mapped_file.hpp"
#include "util/strings.hpp"

namespace cgbench::util {

namespace {

std::string errno_text(int err) {
    return std::string(strerror(err));
}

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// A descriptor of cgbench's own that `target` names: "-" and /dev/stdout are 1, /dev/stderr
// 2, /dev/fd/N and /proc/self/fd/N are N. Written directly: resolving them would reach the
// file the shell redirected to (and replace it) or a pipe that has no path.
std::optional<int> own_descriptor(const std::string& target) {
    if (target == "-" || target == "/dev/stdout") return 1;
    if (target == "/dev/stderr") return 2;
    for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (starts_with(target, prefix)) {
            const auto n = parse_u64(std::string_view(target).substr(prefix.size()));
            if (n && *n <= 65535) return static_cast<int>(*n);
        }
    }
    return std::nullopt;
}

std::string kind_of(mode_t mode) {
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

[[noreturn]] void refuse(const fs::path& target, const std::string& why,
                         const std::string& hint = "choose another path, or - for stdout") {
    throw UsageError(fmt::format("cannot write {}: {}", target.string(), why), hint);
}

// A temporary sibling of `target` (mkostemp: created exclusively, never a link), closed on
// exec so measured programs never inherit it. UsageError naming `shown` when it fails.
std::pair<int, fs::path> temp_beside(const fs::path& target, const fs::path& shown) {
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        throw UsageError(fmt::format("cannot write {}: directory {} does not exist", shown.string(),
                                     dir.string()),
                         "create the directory first or choose another path");
    }
    std::string pattern = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
    const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw UsageError(fmt::format("cannot write {}: {}", shown.string(), errno_text(err)),
                         "choose a writable location");
    }
    return {fd, fs::path(pattern)};
}

// Writes `content` to `fd`, fixes its mode, syncs it, closes it and renames `temp` to
// `target`; EnvironmentError naming `shown` on failure.
void finish_temp(int fd, const fs::path& temp, const fs::path& target, unsigned mode,
                 std::string_view content, const fs::path& shown) {
    const bool ok = write_all(fd, content) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
    const int err = errno;
    const bool closed = ::close(fd) == 0;
    if (!ok || !closed) {
        throw EnvironmentError(
            fmt::format("cannot write {}: {}", shown.string(), errno_text(ok ? errno : err)));
    }
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int rerr = errno;
        throw EnvironmentError(
            fmt::format("cannot replace {}: {}", shown.string(), errno_text(rerr)));
    }
}

}  // namespace

OutputFile::OutputFile(fs::path target) : target_(std::move(target)) {
    if (const auto fd = own_descriptor(target_.string())) {
        const int flags = ::fcntl(*fd, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
            refuse(target_, fmt::format("descriptor {} is not open for writing", *fd));
        }
        own_fd_ = *fd;
        return;
    }
    struct stat st {};
    if (::lstat(target_.c_str(), &st) != 0) {
        open_temp(target_, 0644);  // a new file
        return;
    }
    fs::path path = target_;
    if (S_ISLNK(st.st_mode)) {
        if (const auto why = unfollowed_link(target_)) {
            refuse(target_, *why,
                   "cgbench follows only links of its own user or of root that lead to a file; "
                   "name the file itself");
        }
        if (::stat(target_.c_str(), &st) != 0) refuse(target_, errno_text(errno));
        std::error_code ec;
        if (S_ISREG(st.st_mode)) path = fs::canonical(target_, ec);
        if (ec) refuse(target_, ec.message());
    }
    if (S_ISREG(st.st_mode)) {
        open_temp(path, st.st_mode & 07777);
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        if (::access(target_.c_str(), W_OK) != 0) refuse(target_, errno_text(errno));
        direct_ = target_;  // written in place: a device is never replaced by a file
    } else if (S_ISDIR(st.st_mode)) {
        throw UsageError(fmt::format("output path {} is a directory", target_.string()),
                         "pass a file name, e.g. --out results.json");
    } else {
        refuse(target_, "it is " + kind_of(st.st_mode),
               "write to a regular file, a character device, a FIFO, or - for stdout");
    }
}

void OutputFile::open_temp(const fs::path& replaced, unsigned mode) {
    auto [fd, temp] = temp_beside(replaced, target_);
    fd_ = fd;
    temp_ = std::move(temp);
    replaced_ = replaced;
    mode_ = mode;
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::commit(std::string_view content) {
    if (own_fd_ >= 0) {
        std::fflush(own_fd_ == 2 ? stderr : stdout);  // what was printed comes first
        if (!write_all(own_fd_, content)) {
            const int err = errno;
            throw EnvironmentError(
                fmt::format("cannot write {}: {}", target_.string(), errno_text(err)));
        }
        return;
    }
    if (!direct_.empty()) {
        const int fd = ::open(direct_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        const bool ok = fd >= 0 && write_all(fd, content);
        const int err = errno;
        if (fd >= 0 && ::close(fd) != 0 && ok) {
            throw EnvironmentError(
                fmt::format("cannot write {}: {}", target_.string(), errno_text(errno)));
        }
        if (!ok) {
            throw EnvironmentError(
                fmt::format("cannot write {}: {}", target_.string(), errno_text(err)));
        }
        return;
    }
    const int fd = std::exchange(fd_, -1);
    finish_temp(fd, temp_, replaced_, mode_, content, target_);
    temp_.clear();
}

std::optional<std::string> unfollowed_link(const fs::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return std::nullopt;
    if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        return fmt::format("it is a symbolic link of another user (uid {})", st.st_uid);
    }
    if (::stat(path.c_str(), &st) != 0) return "it is a symbolic link to nothing";
    return std::nullopt;
}

StagingDir::StagingDir() {
    std::string pattern = "/tmp/cgbench.XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        const int err = errno;
        throw EnvironmentError(
            err == ENOSPC
                ? "/tmp is full: cannot create a directory there"
                : fmt::format("cannot create a directory under /tmp: {}", errno_text(err)),
            "cgbench needs a writable /tmp");
    }
    path_ = pattern;
}

StagingDir::~StagingDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw EnvironmentError(fmt::format("cannot read {}: {}", path.string(), errno_text(errno)));
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return std::move(ss).str();
}

void write_file_atomic(const fs::path& path, std::string_view content) {
    OutputFile file(path);
    file.commit(content);
}

void copy_file_replacing(const fs::path& from, const fs::path& to) {
    const MappedFile source(from);
    std::pair<int, fs::path> temp;
    try {
        temp = temp_beside(to, to);
    } catch (const UsageError& e) {
        throw EnvironmentError(e.what());
    }
    try {
        finish_temp(temp.first, temp.second, to, 0644, source.view(), to);
    } catch (const Error&) {
        ::unlink(temp.second.c_str());
        throw;
    }
}

void ensure_writable_dir(const fs::path& dir, std::string_view what) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        throw UsageError(fmt::format("{} {} cannot be created: {}", what, dir.string(),
                                     ec ? ec.message() : "a file of that name exists"),
                         "choose a writable directory");
    }
    if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        throw UsageError(
            fmt::format("{} {} belongs to another user (uid {})", what, dir.string(), st.st_uid),
            "choose a directory of your own; cgbench creates it when missing");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        throw UsageError(fmt::format("{} {} is not writable", what, dir.string()),
                         "choose a writable directory");
    }
}

std::optional<std::uint64_t> free_bytes(const fs::path& path) {
    struct statvfs s {};
    if (::statvfs(path.c_str(), &s) != 0) return std::nullopt;
    return static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;
}

fs::path absolute_lexical(const fs::path& p) {
    if (p.is_absolute()) return p.lexically_normal();
    return (fs::current_path() / p).lexically_normal();
}

}  // namespace cgbench::util
