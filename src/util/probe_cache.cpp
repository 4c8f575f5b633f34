#include "util/probe_cache.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include "base/errors.hpp"
#include "util/fs.hpp"
#include "util/hash.hpp"

namespace cgbench::util {

std::filesystem::path ProbeCache::file_for(std::string_view kind, std::string_view material) const {
    return dir_ / fmt::format("{}-{}.txt", kind, hex64(fnv1a64(material)));
}

std::optional<std::string> ProbeCache::get(std::string_view kind, std::string_view material) const {
    if (dir_.empty()) return std::nullopt;
    const auto path = file_for(kind, material);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    try {
        return read_file(path);
    } catch (const Error&) {
        return std::nullopt;
    }
}

void ProbeCache::put(std::string_view kind, std::string_view material,
                     std::string_view value) const {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    try {
        write_file_atomic(file_for(kind, material), value);
    } catch (const Error&) {
        // Only costs time on the next run.
    }
}

std::string file_identity(const std::filesystem::path& path) {
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0) return path.string() + ":missing";
    return fmt::format("{}:{}:{}.{}", path.string(), st.st_size, st.st_mtim.tv_sec,
                       st.st_mtim.tv_nsec);
}

}  // namespace cgbench::util
