#pragma once
// Filesystem helpers: output files, RAII scratch directories, path utilities.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::util {

namespace fs = std::filesystem;

// A file cgbench writes (--out, --html): complete or not at all. What the target is decides
// how it is written:
//   "-", /dev/stdout, /dev/stderr, /dev/fd/N     that descriptor of cgbench's, directly;
//   a new path or an existing regular file       a temporary sibling, renamed over the target
//                                                by commit(): no reader ever sees half a file;
//   a character device or a FIFO (/dev/null)     opened and written in place, never replaced;
//   a symbolic link of the caller's or of root   followed: the file it leads to is one of the
//                                                above (the link stays a link);
//   anything else is refused: a directory, a block device, a socket, a dangling link, a
//   link that belongs to another user (which could lead a privileged cgbench anywhere).
// The constructor checks what can be checked (the directory exists and is writable, the
// device is writable), so a bad destination fails before any long work; an object that dies
// uncommitted leaves nothing behind and an existing target untouched.
class OutputFile {
  public:
    // Throws UsageError naming the path and the reason when it cannot be written.
    explicit OutputFile(fs::path target);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Writes `content` (a replaced file is fsynced, then renamed over the target). Throws
    // EnvironmentError on an I/O failure (a full disk or device, a closed pipe) and leaves
    // a replaced target as it was.
    void commit(std::string_view content);
    // The path as given.
    const fs::path& target() const { return target_; }
    // True when the content goes to cgbench's standard output ("-", /dev/stdout): what would
    // be printed there then goes to stderr.
    bool is_stdout() const { return own_fd_ == 1; }
    // True when the content goes to a regular file (one that can be read back later).
    bool is_file() const { return !replaced_.empty(); }

  private:
    void open_temp(const fs::path& replaced, unsigned mode);

    fs::path target_;
    fs::path replaced_;  // the regular file renamed over (where a link leads)
    fs::path temp_;
    unsigned mode_ = 0644;
    fs::path direct_;  // a character device or FIFO written in place
    int own_fd_ = -1;  // a descriptor of cgbench's own
    int fd_ = -1;      // the temporary file
};

// Why cgbench does not follow `path` when it is a symbolic link ("it is a symbolic link of
// another user (uid 1001)", "it is a symbolic link to nothing"), or nullopt: it is no link,
// or one of the caller's or root's leading to something. A link another user planted in a
// shared directory would otherwise choose what a cgbench run as root writes or reads.
std::optional<std::string> unfollowed_link(const fs::path& path);

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

// Writes a whole file (OutputFile + commit).
void write_file_atomic(const fs::path& path, std::string_view content);

// Copies `from` to `to` through a temporary file in `to`'s directory renamed over `to`: what
// was at `to` (a file, or a symbolic link, which is never followed) is replaced, never
// written through. The copy is mode 0644. Throws EnvironmentError naming `to` on failure
// (and leaves nothing behind).
void copy_file_replacing(const fs::path& from, const fs::path& to);

// Creates `dir` and parents if needed and checks it is a writable directory of the caller's
// own (or root's): a directory another user owns could hold links or be swapped for one.
// Throws UsageError with `what` ("--keep-raw directory") naming the option otherwise.
void ensure_writable_dir(const fs::path& dir, std::string_view what);

// Bytes free for the caller on the filesystem holding `path`; nullopt when unknown.
std::optional<std::uint64_t> free_bytes(const fs::path& path);

// The absolute form of `p` relative to the current directory, without resolving symlinks.
fs::path absolute_lexical(const fs::path& p);

}  // namespace cgbench::util
