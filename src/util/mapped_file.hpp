#pragma once
// A whole file mapped read-only into memory, so parsers can work on string_views into it
// without copying.

#include <cstddef>
#include <filesystem>
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

}  // namespace cgbench::util
