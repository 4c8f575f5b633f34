#pragma once
// A whole file mapped read-only into memory, so parsers can work on string_views into it
// without copying.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::util {

// A read-only memory mapping of a whole file, unmapped on destruction. An empty file maps to
// an empty view.
class MappedFile {
  public:
    // Throws EnvironmentError naming the path when the file cannot be opened or mapped.
    explicit MappedFile(const std::filesystem::path& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // The file's bytes; valid while this object lives.
    std::string_view view() const;

  private:
    void* addr_ = nullptr;
    std::size_t size_ = 0;
};

// A whole file's bytes: mapped when it is a regular file, read whole otherwise (a pipe, a
// device), so readers of user-named files take what a shell can give them.
class FileBytes {
  public:
    // Throws EnvironmentError naming the path when the file cannot be read.
    explicit FileBytes(const std::filesystem::path& path);

    std::string_view view() const { return mapped_ ? mapped_->view() : std::string_view(read_); }

  private:
    std::optional<MappedFile> mapped_;
    std::string read_;
};

}  // namespace cgbench::util
