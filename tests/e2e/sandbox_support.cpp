#include "e2e/sandbox_support.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/fs.hpp"

namespace cgbench::e2e {

std::string add_test_users(const fs::path& scratch) {
    struct File {
        const char* real;
        std::string extra;
    };
    const File files[] = {
        {"/etc/passwd", fmt::format("cgb-victim:x:{0}:{0}::/nonexistent:/bin/sh\n"
                                    "cgb-attacker:x:{1}:{1}::/nonexistent:/bin/sh\n",
                                    kVictimUid, kAttackerUid)},
        {"/etc/group",
         fmt::format("cgb-victim:x:{}:\ncgb-attacker:x:{}:\n", kVictimUid, kAttackerUid)}};
    for (const auto& f : files) {
        const fs::path copy = scratch / (fs::path(f.real).filename().string() + ".users");
        std::string text = util::read_file(f.real);
        if (!text.empty() && text.back() != '\n') text += '\n';
        std::ofstream(copy) << text << f.extra;
        ::chmod(copy.c_str(), 0644);
        if (::mount(copy.c_str(), f.real, nullptr, MS_BIND, nullptr) != 0) {
            return fmt::format("cannot bind a copy over {}: {}\n", f.real, std::strerror(errno));
        }
    }
    return {};
}

bool make_owned_dir(const fs::path& path, uid_t uid, mode_t mode) {
    std::error_code ec;
    fs::create_directories(path, ec);
    return !ec && ::chown(path.c_str(), uid, uid) == 0 && ::chmod(path.c_str(), mode) == 0;
}

RunFacts run_facts(const Spawned& run) {
    RunFacts f;
    f.exit_code = run.exit_code;
    f.err = run.err;
    try {
        const auto doc = nlohmann::json::parse(run.out);
        const auto& b = doc.at("benchmarks").at(0);
        const auto& header = doc.at("run");
        f.events = b.value("events", nlohmann::json::object());
        f.key = header.at("fingerprint").value("key", "");
        f.isolation = header.at("fingerprint").value("isolation", "");
        for (const auto* list : {&header, &b}) {
            for (const auto& w : list->value("warnings", nlohmann::json::array()))
                f.warnings.push_back(w.get<std::string>());
        }
    } catch (const std::exception&) {
        f.events = nlohmann::json();
    }
    return f;
}

RunFacts measure(const std::vector<std::string>& run_args, const Spawn& spawn) {
    std::vector<std::string> args = {"run", "--no-db", "-q", "--format", "json"};
    args.insert(args.end(), run_args.begin(), run_args.end());
    return run_facts(run_cgbench(args, spawn));
}

RunFacts measure_without_namespaces(const std::vector<std::string>& run_args, const Spawn& spawn) {
    Spawn through = spawn;
    through.through = {program("no_namespaces")};
    if (spawn.uid) {  // the wrapper becomes the user after its filter: setuid programs still work
        through.through.insert(through.through.end(), {"--uid", std::to_string(*spawn.uid)});
        through.uid.reset();
    }
    return measure(run_args, through);
}

std::string loader_cache_identity() {
    struct stat st {};
    if (::stat("/etc/ld.so.cache", &st) != 0) return "none";
    return fmt::format("{}:{}:{}.{}", st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
    for (const auto& w : warnings) {
        if (w.find(text) != std::string::npos) return true;
    }
    return false;
}

std::optional<std::string> kernel_refuses_namespaces() {
    static const std::optional<std::string> answer = []() -> std::optional<std::string> {
        const pid_t child = ::fork();
        if (child < 0) return fmt::format("fork: {}", std::strerror(errno));
        if (child == 0) _exit(::unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 ? 0 : errno);
        int status = 0;
        if (::waitpid(child, &status, 0) != child || !WIFEXITED(status))
            return std::string("the probe did not exit");
        if (WEXITSTATUS(status) == 0) return std::nullopt;
        return fmt::format("unshare(CLONE_NEWUSER | CLONE_NEWNS): {}",
                           std::strerror(WEXITSTATUS(status)));
    }();
    return answer;
}

}  // namespace cgbench::e2e
