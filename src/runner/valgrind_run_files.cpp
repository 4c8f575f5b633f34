// What a Valgrind run left: ValgrindLauncher's readers of its profiles, logs and processes,
// and the copies --keep-raw keeps.

#include <fmt/format.h>

#include "runner/valgrind_launcher.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"
#include "valgrind/profile_builder.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

// Whether `p` is the started process still running the program cgbench started. Valgrind's
// log shows the command with spaces escaped ("\ ") and other bytes altered, so only the
// program's path, which cgbench staged, is compared.
bool runs_started_program(const TracedProcess& p, int root_pid, const std::string& program) {
    if (p.pid != root_pid) return false;
    std::string escaped;
    for (const char c : program) {
        if (c == ' ') escaped += '\\';
        escaped += c;
    }
    const std::string_view command = util::trim(p.log.command);
    return command == escaped || command.starts_with(escaped + ' ');
}

// The profile at `path` of a run of `tool`.
metrics::Profile parse_profile(valgrind::Tool tool, const fs::path& path,
                               const metrics::ProfileRequest& options) {
    return tool == valgrind::Tool::Callgrind ? valgrind::parse_callgrind_file(path, options)
                                             : valgrind::parse_cachegrind_file(path, options);
}

// Parses a profile Valgrind wrote; a malformed one means Valgrind misbehaved (EnvironmentError).
template <typename Parse>
auto parse_output(Parse&& parse) {
    try {
        return parse();
    } catch (const valgrind::ParseError& e) {
        throw_if_tmp_full();
        throw EnvironmentError(fmt::format("valgrind wrote an unreadable profile: {}", e.what()));
    }
}

}  // namespace

metrics::Profile ValgrindLauncher::profile(const Run& run, metrics::ProfileRequest options) const {
    // The started program's arguments are known: its `cmd:` header spans their lines.
    options.cmd_lines = run.cmd_lines;
    return parse_output([&] { return parse_profile(run.files.tool, run.out_file(), options); });
}

std::vector<metrics::Profile> ValgrindLauncher::profile_parts(
    const Run& run, const metrics::ProfileRequest& options) const {
    return parse_output([&] { return valgrind::parse_callgrind_parts(run.out_file(), options); });
}

valgrind::ProcessLog ValgrindLauncher::log(const Run& run) const {
    return valgrind::parse_process_log(util::read_file(run.log_file()));
}

std::vector<TracedProcess> ValgrindLauncher::processes(const Run& run) const {
    return traced_processes(run.files, run.root_pid);
}

std::optional<metrics::Profile> ValgrindLauncher::process_profile(const Run& run,
                                                                  const TracedProcess& process,
                                                                  metrics::ProfileRequest options,
                                                                  bool cut_short_is_none) const {
    // The started program's `cmd:` header spans its arguments' lines. Others' are not known
    // (nor those of what it exec'd into): theirs ends at the last `events:` line.
    if (runs_started_program(process, run.root_pid, run.cmd_program))
        options.cmd_lines = run.cmd_lines;
    const auto parse = [&] { return parse_profile(run.files.tool, process.profile, options); };
    if (!cut_short_is_none) return parse_output(parse);
    try {
        return parse();
    } catch (const valgrind::ParseError&) {
        return std::nullopt;
    }
}

namespace {

// "cachegrind.out.123" -> "cachegrind.out", "callgrind.out.123.4" -> "callgrind.out.4",
// "valgrind.log.123" -> "valgrind.log": a kept file's name without the pid.
std::string name_without_pid(const fs::path& file, int pid) {
    std::string name = file.filename().string();
    const std::string mark = fmt::format(".{}", pid);
    for (auto at = name.find(mark); at != std::string::npos; at = name.find(mark, at + 1)) {
        const auto end = at + mark.size();
        if (end == name.size() || name[end] == '.') return name.erase(at, mark.size());
    }
    return name;
}

}  // namespace

void ValgrindLauncher::keep_files(const BenchmarkSpec& spec, int attempt, const Run& run,
                                  BenchmarkResult& result,
                                  const std::vector<fs::path>& extra) const {
    if (settings_.keep_raw_dir.empty() || run.root_pid == 0) return;
    const std::string stem = util::file_safe(spec.name) +
                             (attempt > 0 ? fmt::format(".{}", attempt + 1) : std::string());
    // NAME.cachegrind.out, or NAME.callgrind.out with its dump parts NAME.callgrind.out.N;
    // NAME.valgrind.log. The other processes of a whole-program run: NAME.process-K.*, K as
    // in the result's list. Then `extra` as NAME.<its file name>.
    std::vector<std::pair<fs::path, std::string>> files;
    const auto add = [&](const TracedProcess& p, const std::string& infix) {
        for (const auto& f : valgrind::callgrind_part_files(run.files.out_file(p.pid)))
            files.emplace_back(f, stem + infix + "." + name_without_pid(f, p.pid));
        files.emplace_back(p.log_file, stem + infix + "." + name_without_pid(p.log_file, p.pid));
    };
    const auto traced = traced_processes(run.files, run.root_pid);
    for (std::size_t i = 0; i < traced.size(); ++i) {
        if (i > 0 && result.processes.empty()) break;
        add(traced[i], i == 0 ? "" : fmt::format(".process-{}", i + 1));
    }
    for (const auto& file : extra)
        files.emplace_back(file, stem + "." + file.filename().string());
    for (const auto& [file, name] : files) {
        const fs::path dest = settings_.keep_raw_dir / name;
        std::error_code ec;
        if (!fs::exists(file, ec)) continue;  // nothing written (Valgrind did not start)
        try {
            // A temporary file renamed into place: a link planted at `dest` is replaced,
            // never written through.
            util::copy_file_replacing(file, dest);
            if (file == run.out_file()) result.raw_file = dest.string();
        } catch (const Error& e) {
            // The measurement stands; only the copy is missing.
            result.warnings.push_back(fmt::format("--keep-raw: {}", e.what()));
        }
    }
}

}  // namespace cgbench::runner
