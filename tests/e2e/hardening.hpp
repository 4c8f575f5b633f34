#pragma once
// Support for the hardening tests (test_hardening_*_e2e.cpp), one per case of the
// reliability audit, named after its ID: cgbench started with what the shared harness cannot
// arrange (a closed pipe or a device as stdout, another user, a deleted working directory,
// a signal while it runs), and cases that need device nodes or a full disk, run in a private
// mount namespace over a private tmpfs, never against the machine's /dev or disks.

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cgbench::e2e {

namespace fs = std::filesystem;

struct Spawn {
    std::vector<std::string> env = {};  // KEY=VALUE added to (or replacing) this environment
    std::string cwd = {};
    std::string stdout_path = {};  // stdout opened from this path (write-only) instead of captured
    bool stdout_reader_closed = false;  // stdout a pipe nobody reads (`| true`)
    std::optional<uid_t> uid = {};      // run as this user (and its group) when root
    bool remove_cwd = false;            // cwd deleted after cgbench's process entered it
    // Called with the pid once cgbench started, before waiting (to signal it).
    std::function<void(pid_t)> started = {};
    // A program (and its arguments) that runs cgbench: cgbench's argv follows it.
    std::vector<std::string> through = {};
};

struct Spawned {
    int exit_code = -1;  // -1 when killed by a signal
    std::string out;     // empty when stdout went elsewhere
    std::string err;
    double seconds = 0;
};

// Runs the cgbench binary with `args` as `spawn` says and waits for it.
Spawned run_cgbench(const std::vector<std::string>& args, const Spawn& spawn = {});

// Failed checks of a case run in a child process (gtest's assertions do not cross fork).
class Checks {
  public:
    void expect(bool ok, const std::string& what);
    const std::string& failures() const { return failures_; }

  private:
    std::string failures_;
};

// Runs `body` in a child process in a mount namespace of its own, with a fresh tmpfs mounted
// (with `options`, e.g. "size=512k") at `mnt`. Returns what `body` returned ("" when every
// check passed), or "SKIP: why" when this is not root or the namespace cannot be made.
std::string in_private_tmpfs(const fs::path& mnt, const std::string& options,
                             const std::function<std::string(const fs::path&)>& body);

// Makes a character device node (major, minor) at `path`: only ever inside in_private_tmpfs.
bool make_char_device(const fs::path& path, unsigned major, unsigned minor);

// Fills the filesystem holding `dir` with one file; false when it could not.
bool fill_filesystem(const fs::path& dir);

// True for a character device.
bool is_char_device(const fs::path& path);

// Runs stored in the SQLite history database `db` (0 when there is none).
std::size_t history_runs(const fs::path& db);

// A real result, measured for the calling test into DIR/measured.json: the workload program
// (1000 steps), Ir only (so its cost is its Ir), named w1. The template of the runs a test
// writes and imports.
nlohmann::json measured_ir(const fs::path& dir);

// GTEST_SKIP()s a test whose in_private_tmpfs result was a skip, else expects no failures.
#define HARDENING_EXPECT_OK(result)                                   \
    do {                                                              \
        const std::string r_ = (result);                              \
        if (r_.rfind("SKIP: ", 0) == 0) GTEST_SKIP() << r_.substr(6); \
        EXPECT_EQ(r_, "");                                            \
    } while (false)

}  // namespace cgbench::e2e
