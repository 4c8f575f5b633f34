#pragma once
// Where Valgrind writes, and where programs are staged when the sandbox (exec/sandbox.hpp) is
// not available. Everything lives in the caller's private staging directory,
// `/tmp/cgbench-<uid>` (mode 0700, owned by the caller, never a link): no other user can
// create, lock, replace or fill anything cgbench uses, so no other user can stop, slow or
// change a run. When another user holds that name, or /tmp cannot be written, cgbench uses a
// fresh private directory (`mkdtemp`, under /tmp or $TMPDIR) for this process and says so.
//
// - Valgrind's output goes to `<root>/out.XXXXXX`, one per measurement. It holds a lock while
//   its run is alive, so the next cgbench removes what a killed run left behind
//   (clean_stale_staging).
// - Without the sandbox, the program runs through a link `<root>/<H>` to its grandparent
//   directory (H: 16 hex digits of a hash of that directory), the same path in every run and
//   -j job of the caller. Concurrent runs of the caller share the link (a shared lock per
//   link; the last user removes it); the locks are the caller's own, and every wait on them
//   is bounded and ends on Ctrl-C.

#include <filesystem>
#include <string>

namespace cgbench::exec {

// The caller's private staging directory ("/tmp/cgbench-<uid>", or the per-process fallback).
// Created when missing. Throws EnvironmentError naming the cause (a read-only /tmp, no space)
// when no private directory can be made.
const std::filesystem::path& staging_root();

// Why staging_root() is not the fixed per-user path (another user holds it, /tmp is read-only),
// for a run warning; empty when it is.
const std::string& staging_note();

// A private directory for one measurement's Valgrind output, removed on destruction.
class OutputDir {
  public:
    OutputDir();
    ~OutputDir();
    OutputDir(const OutputDir&) = delete;
    OutputDir& operator=(const OutputDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    int lock_fd_ = -1;
};

// The fixed-path link to `target` (a directory), held while the object lives.
class ProgramLink {
  public:
    // `min_name_length`: the link's name is padded to at least this many characters. Throws
    // EnvironmentError when the link cannot be made, Interrupted on Ctrl-C while waiting.
    explicit ProgramLink(const std::filesystem::path& target, std::size_t min_name_length = 0);
    ~ProgramLink();
    ProgramLink(const ProgramLink&) = delete;
    ProgramLink& operator=(const ProgramLink&) = delete;
    // "<root>/<H>": a symlink to the target.
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    std::filesystem::path lock_path_;
    int lock_fd_ = -1;
};

// The link name for `target`: 16 hex digits of a hash of its path, then '_' up to
// `min_length` characters.
std::string link_name(const std::filesystem::path& target, std::size_t min_length = 0);

// Removes output directories and links under staging_root() that no live cgbench holds (left
// by a run that was killed). Never throws; returns how many were removed.
int clean_stale_staging();

}  // namespace cgbench::exec
