#pragma once
// Where measured programs are run from, and where Valgrind writes. Nothing the program can
// see may vary between runs, parallel jobs or users (a Python script's dict layouts follow
// the hashes of its own path, measured: ~1,000 Ir from run to run with a random directory
// name), so:
//
// - The program is run through a link with a fixed path, `/tmp/cgbench/<H>`, pointing to its
//   grandparent directory; H is 16 hex digits of a hash of that directory. The same program
//   gets the same path in every run, in every -j job and for every user, and concurrent runs
//   share the link (a shared lock per link; the last user removes it).
// - Valgrind's output goes to a private directory, `/tmp/cgbench/out.XXXXXX`, that the program
//   never sees. It holds a lock while its run is alive, so the next cgbench removes what a
//   killed run left behind (clean_stale_staging).
//
// /tmp/cgbench is created sticky and world-writable (like /tmp) and used only when it is a
// real directory owned by root or by the caller; links are used only when owned by root or
// the caller, so another local user cannot redirect what runs. Otherwise cgbench falls back to
// its private `/tmp/cgbench-<uid>` (paths then differ from other users' runs, and the
// run says so).

#include <filesystem>
#include <string>

namespace cgbench::exec {

// The shared area: "/tmp/cgbench", or the private fallback when that cannot be trusted.
// Creates it when missing. Throws EnvironmentError when neither can be created.
const std::filesystem::path& staging_root();

// True when staging_root() is the per-user fallback (for a run warning).
bool staging_is_private();

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
    // `min_name_length`: the link's name is padded to at least this many characters.
    explicit ProgramLink(const std::filesystem::path& target, std::size_t min_name_length = 0);
    ~ProgramLink();
    ProgramLink(const ProgramLink&) = delete;
    ProgramLink& operator=(const ProgramLink&) = delete;
    // "/tmp/cgbench/<H>": a symlink to the target.
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    std::filesystem::path lock_path_;
    int lock_fd_ = -1;
};

// The link name for `target`: 16 hex digits of a hash of its path, then '_' up to
// `min_length` characters.
std::string link_name(const std::filesystem::path& target, std::size_t min_length = 0);

// Removes output directories and links under staging_root() that the caller owns and no live
// cgbench holds (left by a run that was killed). Never throws; returns how many were removed.
int clean_stale_staging();

}  // namespace cgbench::exec
