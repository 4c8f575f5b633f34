#pragma once
// Filesystem helpers: atomic writes, RAII scratch directories, path utilities.

#include <filesystem>
#include <string>
#include <string_view>

namespace cgbench::util {

namespace fs = std::filesystem;

// A file that appears at `target` only when commit() succeeds. The temporary sibling is
// created in the constructor, so an unwritable destination fails before any long work starts;
// if the object dies uncommitted, the temporary is removed and `target` is untouched.
class AtomicFile {
  public:
    // Throws UsageError when the destination directory is missing or not writable.
    explicit AtomicFile(fs::path target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Writes `content`, fsyncs and renames over the target. Throws EnvironmentError on I/O
    // failure (and leaves the target as it was).
    void commit(std::string_view content);
    const fs::path& target() const { return target_; }

  private:
    fs::path target_;
    fs::path temp_;
    int fd_ = -1;
};

// A private scratch directory "/tmp/cgbench.XXXXXX" (mkdtemp), removed recursively on
// destruction. Measured programs are staged elsewhere (exec/staging.hpp).
class StagingDir {
  public:
    StagingDir();
    ~StagingDir();
    StagingDir(const StagingDir&) = delete;
    StagingDir& operator=(const StagingDir&) = delete;
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

// Reads a whole file; throws EnvironmentError naming the path on failure.
std::string read_file(const fs::path& path);

// Writes a whole file atomically (AtomicFile + commit).
void write_file_atomic(const fs::path& path, std::string_view content);

// Creates `dir` and parents if needed and checks it is a writable directory; throws
// UsageError with `what` ("--keep-raw directory") naming the option otherwise.
void ensure_writable_dir(const fs::path& dir, std::string_view what);

// The absolute form of `p` relative to the current directory, without resolving symlinks.
fs::path absolute_lexical(const fs::path& p);

}  // namespace cgbench::util
