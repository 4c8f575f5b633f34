#include "util/fs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

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

}  // namespace

AtomicFile::AtomicFile(fs::path target) : target_(std::move(target)) {
    const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
    std::error_code ec;
    if (fs::is_directory(target_, ec)) {
        throw UsageError(fmt::format("output path {} is a directory", target_.string()),
                         "pass a file name, e.g. --out results.json");
    }
    if (!fs::is_directory(dir, ec)) {
        throw UsageError(fmt::format("cannot write {}: directory {} does not exist",
                                     target_.string(), dir.string()),
                         "create the directory first or choose another path");
    }
    std::string pattern = (dir / ("." + target_.filename().string() + ".tmp.XXXXXX")).string();
    fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);  // never inherited by measured programs
    if (fd_ < 0) {
        const int err = errno;
        throw UsageError(fmt::format("cannot write {}: {}", target_.string(), errno_text(err)),
                         "choose a writable location");
    }
    temp_ = pattern;
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::commit(std::string_view content) {
    // mkostemp creates 0600; a result file is meant to be shared like any other output.
    const bool ok = write_all(fd_, content) && ::fchmod(fd_, 0644) == 0 && ::fsync(fd_) == 0;
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (!ok) {
        throw EnvironmentError(
            fmt::format("cannot write {}: {}", target_.string(), errno_text(err)));
    }
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        const int rerr = errno;
        throw EnvironmentError(
            fmt::format("cannot replace {}: {}", target_.string(), errno_text(rerr)));
    }
    temp_.clear();
}

StagingDir::StagingDir() {
    std::string pattern = "/tmp/cgbench.XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        const int err = errno;
        throw EnvironmentError(
            fmt::format("cannot create a directory under /tmp: {}", errno_text(err)),
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
    AtomicFile file(path);
    file.commit(content);
}

void ensure_writable_dir(const fs::path& dir, std::string_view what) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir)) {
        throw UsageError(fmt::format("{} {} cannot be created: {}", what, dir.string(),
                                     ec ? ec.message() : "a file of that name exists"),
                         "choose a writable directory");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        throw UsageError(fmt::format("{} {} is not writable", what, dir.string()),
                         "choose a writable directory");
    }
}

fs::path absolute_lexical(const fs::path& p) {
    if (p.is_absolute()) return p.lexically_normal();
    return (fs::current_path() / p).lexically_normal();
}

}  // namespace cgbench::util
