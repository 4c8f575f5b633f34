#include "exec/program.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

void check_runnable(const std::string& as_given, const fs::path& path) {
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (!fs::exists(st)) {
        throw UsageError(fmt::format("program '{}' not found ({} does not exist)",
                                     util::printable(as_given), path.string()),
                         "check the path, or build the program first");
    }
    if (fs::is_directory(st)) {
        throw UsageError(fmt::format("program '{}' is a directory", util::printable(as_given)),
                         "name the executable inside it");
    }
    if (!fs::is_regular_file(st)) {
        throw UsageError(
            fmt::format("program '{}' is not a regular file", util::printable(as_given)),
            "name an executable file");
    }
    const auto exec_bits = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
    if ((st.permissions() & exec_bits) == fs::perms::none || ::access(path.c_str(), X_OK) != 0) {
        throw UsageError(
            fmt::format("program '{}' is not executable", util::printable(as_given)),
            fmt::format("make it executable: chmod +x {}", util::shell_quote(path.string())));
    }
}

}  // namespace

fs::path search_path(const std::string& name, const std::string& path_var) {
    for (const auto dir : util::split(path_var, ':')) {
        const fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / name;
        if (is_executable_file(candidate)) return candidate;
    }
    return {};
}

bool is_executable_file(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

ResolvedProgram resolve_program(const std::string& name, const fs::path& cwd,
                                const EnvMap& caller) {
    if (name.empty())
        throw UsageError("no program given", "usage: cgbench run [OPTIONS] -- PROGRAM [ARGS...]");
    ResolvedProgram out;
    out.as_given = name;
    if (name.find('/') != std::string::npos) {
        const fs::path p(name);
        out.path = (p.is_absolute() ? p : cwd / p).lexically_normal();
    } else {
        const auto it = caller.find("PATH");
        out.path = search_path(name, it != caller.end() ? it->second : "");
        if (out.path.empty()) {
            throw UsageError(fmt::format("program '{}' not found on PATH", util::printable(name)),
                             "give a path such as ./" + name + ", or add its directory to PATH");
        }
        out.path = fs::absolute(out.path).lexically_normal();
    }
    check_runnable(name, out.path);
    return out;
}

fs::path link_target(const ResolvedProgram& program) {
    // Resolve the directory (not the file: its name may select behaviour, e.g. python3).
    const fs::path dir = fs::canonical(program.path.parent_path());
    return dir.has_parent_path() && dir != dir.root_path() ? dir.parent_path() : dir;
}

namespace {

// How long the link's name is made for `program`: so long that "<link name>/<parent name>"
// always takes kStagedDirChars characters (the parent's name no longer moves the path's
// length: `build/` and `cmake-build-release/` give the same counts).
std::size_t link_name_length(const ResolvedProgram& program) {
    const fs::path dir = fs::canonical(program.path.parent_path());
    if (link_target(program) == dir) return kStagedDirChars;
    const std::size_t parent = dir.filename().string().size() + 1;
    return parent < kStagedDirChars ? kStagedDirChars - parent : 0;
}

}  // namespace

StagedProgram::StagedProgram(const ResolvedProgram& program)
    : link_(link_target(program), link_name_length(program)) {
    const fs::path dir = fs::canonical(program.path.parent_path());
    path_ = link_target(program) == dir ? link_.path() / program.path.filename()
                                        : link_.path() / dir.filename() / program.path.filename();
}

}  // namespace cgbench::exec
