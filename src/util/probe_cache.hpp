#pragma once
// A small on-disk cache for facts that cost a process launch to learn (Valgrind's version,
// glibc's CPU feature selection). Keys are hashes of everything the fact depends on, so a
// stale entry is never read; an unwritable cache only costs time.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::util {

class ProbeCache {
  public:
    // `dir` empty: caching disabled.
    explicit ProbeCache(std::filesystem::path dir = {}) : dir_(std::move(dir)) {}

    // The value stored under (kind, key-material), if any.
    std::optional<std::string> get(std::string_view kind, std::string_view material) const;
    // Stores a value; failures are ignored.
    void put(std::string_view kind, std::string_view material, std::string_view value) const;

  private:
    std::filesystem::path file_for(std::string_view kind, std::string_view material) const;
    std::filesystem::path dir_;
};

// "path:size:mtime" of a file, for cache keys ("path:missing" when it does not exist).
std::string file_identity(const std::filesystem::path& path);

}  // namespace cgbench::util
