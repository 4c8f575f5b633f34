#include "valgrind/installation.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "util/strings.hpp"

namespace cgbench::valgrind {

namespace fs = std::filesystem;

namespace {

constexpr const char* kInstallHint =
    "install it with `sudo apt-get install valgrind` (Debian/Ubuntu), or point "
    "CGBENCH_VALGRIND at the valgrind binary";

bool is_script(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    char magic[2] = {};
    in.read(magic, 2);
    return in.gcount() == 2 && magic[0] == '#' && magic[1] == '!';
}

std::string ask_version(const fs::path& launcher, exec::ProcessRunner& runner) {
    exec::ProcessSpec spec;
    spec.argv = {launcher.string(), "--version"};
    spec.env = {"PATH=/usr/bin:/bin"};
    spec.disable_aslr = false;
    spec.timeout_seconds = 30;
    const auto out = runner.run(spec);
    const std::string text(util::trim(out.stdout_tail));
    if (out.how == exec::Termination::Exited && out.exit_code == 0 &&
        !util::starts_with(text, "valgrind-")) {
        // It ran: it is something else than Valgrind (CGBENCH_VALGRIND=/bin/true).
        const std::string said = util::printable(text.substr(0, 80));
        throw EnvironmentError(
            fmt::format("{} is not Valgrind: `{} --version` printed {}", launcher.string(),
                        launcher.filename().string(), said.empty() ? "nothing" : "'" + said + "'"),
            kInstallHint);
    }
    if (out.how != exec::Termination::Exited || out.exit_code != 0) {
        const std::string err = util::printable(util::trim(out.stderr_tail).substr(0, 200));
        throw EnvironmentError(fmt::format("{} does not run ({}){}", launcher.string(),
                                           out.how == exec::Termination::SpawnFailed
                                               ? std::string(strerror(out.spawn_errno))
                                               : fmt::format("exit {}", out.exit_code),
                                           err.empty() ? "" : ": " + err),
                               kInstallHint);
    }
    return text.substr(std::string_view("valgrind-").size());
}

}  // namespace

bool Installation::at_least(int major, int minor) const {
    return util::version_at_least(version, major, minor);
}

Installation locate_valgrind(const exec::EnvMap& caller, exec::ProcessRunner& runner,
                             const util::ProbeCache& cache) {
    Installation inst;
    if (const auto it = caller.find("CGBENCH_VALGRIND");
        it != caller.end() && !it->second.empty()) {
        inst.found = it->second;
        if (!exec::is_executable_file(inst.found)) {
            throw EnvironmentError(
                fmt::format("CGBENCH_VALGRIND={} is not an executable file", it->second),
                kInstallHint);
        }
    } else {
        const auto path_it = caller.find("PATH");
        inst.found = exec::search_path("valgrind",
                                       path_it != caller.end() ? path_it->second : "/usr/bin:/bin");
        if (inst.found.empty()) throw EnvironmentError("valgrind not found on PATH", kInstallHint);
    }
    inst.found = fs::absolute(inst.found);
    inst.launcher = inst.found;
    if (is_script(inst.found)) {
        fs::path real = inst.found;
        real += ".bin";
        if (exec::is_executable_file(real)) {
            inst.launcher = real;
            inst.bypassed_wrapper = true;
        } else {
            inst.is_wrapper = true;
        }
    }
    const std::string identity = util::file_identity(inst.launcher);
    if (const auto cached = cache.get("valgrind-version", identity)) {
        inst.version = *cached;
    } else {
        inst.version = ask_version(inst.launcher, runner);
        cache.put("valgrind-version", identity, inst.version);
    }
    return inst;
}

}  // namespace cgbench::valgrind
