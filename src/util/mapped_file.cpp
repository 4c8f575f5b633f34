#include "util/mapped_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"
#include "util/fs.hpp"

namespace cgbench::util {

MappedFile::MappedFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw EnvironmentError(
            fmt::format("cannot read {}: {}", path.string(), std::strerror(err)));
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
        size_ = static_cast<std::size_t>(st.st_size);
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        addr_ = p == MAP_FAILED ? nullptr : p;
        // Parsers read front to back once.
        if (addr_ != nullptr) ::madvise(addr_, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
    if (size_ > 0 && addr_ == nullptr) {
        throw EnvironmentError(fmt::format("cannot map {}", path.string()));
    }
}

MappedFile::~MappedFile() {
    if (addr_ != nullptr) ::munmap(addr_, size_);
}

std::string_view MappedFile::view() const {
    return addr_ != nullptr ? std::string_view(static_cast<const char*>(addr_), size_)
                            : std::string_view();
}

FileBytes::FileBytes(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        mapped_.emplace(path);
    } else {
        read_ = read_file(path);
    }
}

}  // namespace cgbench::util
