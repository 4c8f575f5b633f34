#include "runner/fingerprint.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <cstring>

#include "base/errors.hpp"
#include "core/version.hpp"
#include "exec/sandbox.hpp"
#include "util/elf.hpp"
#include "util/fs.hpp"
#include "util/hash.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

std::string loader_cache_hash(const std::filesystem::path& path) {
    try {
        return util::hex64(util::fnv1a64(util::read_file(path)));
    } catch (const Error&) {
        return "";  // no cache (a static system, another libc): nothing to tell apart
    }
}

std::vector<std::string> compilers_of(const std::vector<std::filesystem::path>& programs) {
    std::vector<std::string> out;
    for (const auto& p : programs) {
        for (auto& c : util::elf_comment_strings(p))
            out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Fingerprint build_fingerprint(const Measurer& m, const valgrind::GlibcSelection& selection,
                              const std::vector<valgrind::ToolOptions>& tools) {
    const auto& s = m.settings();
    Fingerprint f;
    f.cgbench_version = std::string(kVersion);
    std::vector<std::string> names;
    for (const auto& options : tools) {
        const std::string name(valgrind::to_string(options.tool));
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        const auto args = valgrind::behaviour_args(options);
        f.valgrind_options.insert(f.valgrind_options.end(), args.begin(), args.end());
    }
    f.tool = util::join(names, "+");
    f.valgrind_version = m.installation().version;
    f.valgrind_launcher = m.installation().launcher.string();
    f.valgrind_wrapper_bypassed = m.installation().bypassed_wrapper;
    f.glibc_version =
        selection.available ? selection.glibc_version : valgrind::system_glibc_version();
    // The architecture of the programs Valgrind runs: the one cgbench was built for ("aarch64"
    // on arm64 whatever the kernel calls it), or what uname says elsewhere.
    f.arch = std::string(valgrind::arch_name(valgrind::build_arch()));
    struct utsname u {};
    if (valgrind::build_arch() == valgrind::CpuArch::Other && ::uname(&u) == 0) f.arch = u.machine;
    f.geometry = s.geometry;
    f.cache_sim = !s.weights.instructions_only;
    f.branch_sim = s.branch_sim;
    f.weights = s.weights;
    f.cpu_baseline = std::string(valgrind::to_string(s.cpu_baseline));
    f.glibc_tunables = valgrind::glibc_tunables_for(s.cpu_baseline, s.geometry);
    f.selection = selection;
    f.aslr = m.facts().aslr_errno == 0 ? "disabled"
                                       : std::string("enabled (personality() refused: ") +
                                             std::strerror(m.facts().aslr_errno) + ")";
    f.env_block_bytes = m.facts().env_block_bytes;
    f.loader_env = m.facts().loader_env;
    f.loader_cache = loader_cache_hash("/etc/ld.so.cache");
    f.isolation = exec::isolation().describe();
    f.fixed_inputs = s.fixed.describe();
    return f;
}

}  // namespace cgbench::runner
