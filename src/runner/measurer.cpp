#include "runner/measurer.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "exec/sandbox.hpp"
#include "exec/staging.hpp"
#include "runner/function_costs.hpp"
#include "runner/measurement.hpp"
#include "util/fs.hpp"
#include "util/hash.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"
#include "valgrind/command.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

// The last `max_lines` non-empty lines of a text.
std::string last_lines(std::string_view text, std::size_t max_lines) {
    text = util::trim(text);
    std::size_t pos = text.size();
    for (std::size_t n = 0; n < max_lines && pos > 0; ++n) {
        const auto nl = text.rfind('\n', pos - 1);
        pos = nl == std::string_view::npos ? 0 : nl;
    }
    return std::string(util::trim(text.substr(pos)));
}

// Valgrind's own complaint ("valgrind: ./x: bad interpreter ..."), if its stderr holds one.
std::string valgrind_complaint(std::string_view stderr_text) {
    for (const auto line : util::split(stderr_text, '\n')) {
        if (util::starts_with(line, "valgrind: ")) return std::string(line);
    }
    return {};
}

// The error of a run stopped at its timeout (`limit`, which the message names: the wall
// time the kill took is a little longer). `phase` says which run, `file` what it executes.
std::string timeout_error(const exec::ProcessOutcome& outcome, std::optional<double> limit,
                          std::string_view phase, const std::string& file) {
    const double seconds = limit.value_or(outcome.wall_seconds);
    if (outcome.stdin_unwritten) {
        return fmt::format(
            "timed out after {:.3g} s{} waiting for a writer of its stdin FIFO: nothing wrote to "
            "it or closed it (start the writer first: every run, the warm-up too, opens it anew)",
            seconds, phase.empty() ? "" : fmt::format(" {}", phase));
    }
    if (outcome.started) {
        return fmt::format("timed out after {:.3g} s{}; everything it started was killed", seconds,
                           phase.empty() ? "" : fmt::format(" {}, before measuring", phase));
    }
    return fmt::format(
        "timed out after {:.3g} s{} before {} started: its exec (or the sandbox's setup) never "
        "returned, as on a hung file system or under a seccomp supervisor that holds the call; "
        "everything it started was killed; check the file system {} is on and what intercepts "
        "system calls on this machine",
        seconds, phase.empty() ? "" : fmt::format(" {}", phase), file, file);
}

}  // namespace

void throw_if_tmp_full() {
    // Valgrind keeps temporary files of its own in /tmp (the program's environment, which
    // it reads, has no TMPDIR).
    if (::access("/tmp", W_OK) != 0 && (errno == EROFS || errno == EACCES)) {
        throw EnvironmentError(fmt::format("/tmp is not writable ({}): Valgrind keeps its "
                                           "temporary files there",
                                           std::strerror(errno)),
                               "make /tmp writable (TMPDIR moves only cgbench's own files)");
    }
    constexpr std::uint64_t kEnough = 1 << 20;  // Valgrind's files of a small program
    const auto free = util::free_bytes("/tmp");
    if (!free || *free >= kEnough) return;
    throw EnvironmentError(
        fmt::format("/tmp is full ({} KiB free): Valgrind could not write its profile there",
                    *free / 1024),
        "free space in /tmp; cgbench stages every run there (fixed-length paths)");
}

valgrind::ToolOptions tool_options(const MeasureSettings& s, valgrind::Tool tool) {
    return {tool, s.geometry, !s.weights.instructions_only, s.branch_sim, {}};
}

namespace {}  // namespace

std::string default_benchmark_name(const std::vector<std::string>& command) {
    if (command.empty()) return "benchmark";
    std::vector<std::string> parts = {fs::path(command.front()).filename().string()};
    parts.insert(parts.end(), command.begin() + 1, command.end());
    const auto whole = util::join(parts, " ");
    if (whole.size() <= kMaxDefaultNameBytes) return whole;
    std::size_t kept = 0;  // whole UTF-8 characters within the first 100 bytes
    for (std::string_view rest = whole; kept < 100;) {
        char32_t cp = 0;
        const std::size_t n = std::max<std::size_t>(1, util::utf8_sequence(rest, cp));
        if (kept + n > 100) break;
        kept += n;
        rest.remove_prefix(n);
    }
    return whole.substr(0, kept) + "… #" + util::hex64(util::fnv1a64(whole)).substr(0, 8);
}

Measurer::Measurer(valgrind::Installation inst, MeasureSettings settings,
                   exec::ProcessRunner& runner, exec::EnvMap caller)
    : inst_(std::move(inst)),
      settings_(std::move(settings)),
      runner_(runner),
      caller_(std::move(caller)) {
    // What runs killed before their cleanup left behind (a CI job's SIGKILL).
    static std::once_flag cleaned;
    std::call_once(cleaned, [] {
        if (const int n = exec::clean_stale_staging(); n > 0) {
            spdlog::debug("removed {} staging entries left by killed runs", n);
        }
    });
}

std::pair<fs::path, exec::ResolvedProgram> Measurer::locate(const BenchmarkSpec& spec) const {
    if (spec.command.empty()) {
        throw UsageError(fmt::format("benchmark '{}' has no command", util::printable(spec.name)));
    }
    const fs::path cwd = spec.cwd.empty() ? fs::current_path() : fs::absolute(spec.cwd);
    if (!spec.cwd.empty() && !fs::is_directory(cwd)) {
        throw UsageError(fmt::format("working directory {} of '{}' does not exist", cwd.string(),
                                     util::printable(spec.name)),
                         "fix the cwd setting");
    }
    const fs::path base = spec.base_dir.empty() ? cwd : spec.base_dir;
    return {cwd, exec::resolve_program(spec.command.front(), base, caller_)};
}

fs::path Measurer::program_path(const BenchmarkSpec& spec) const {
    return locate(spec).second.path;
}

void Measurer::check(const BenchmarkSpec& spec) const {
    locate(spec);
    std::error_code ec;
    if (spec.stdin_path.empty()) return;
    const auto status = fs::status(spec.stdin_path, ec);
    const std::string why = !fs::exists(status)                            ? "does not exist"
                            : fs::is_directory(status)                     ? "is a directory"
                            : ::access(spec.stdin_path.c_str(), R_OK) != 0 ? "is not readable"
                                                                           : "";
    if (!why.empty()) {
        throw UsageError(fmt::format("stdin file {} of '{}' {}", spec.stdin_path,
                                     util::printable(spec.name), why),
                         "fix the stdin setting: a file (or a device, a FIFO) to read");
    }
}

MeasureFacts Measurer::facts() const {
    const std::lock_guard lock(facts_mutex_);
    return facts_;
}

void Measurer::record_facts(int aslr_errno, std::size_t env_block_bytes,
                            const std::vector<exec::EnvRequest>& env) {
    const auto loader = exec::loader_variables(env, caller_);
    const std::lock_guard lock(facts_mutex_);
    if (aslr_errno != 0) facts_.aslr_errno = aslr_errno;
    facts_.env_block_bytes = std::max(facts_.env_block_bytes, env_block_bytes);
    for (const auto& v : loader) {
        auto& all = facts_.loader_env;
        if (std::find(all.begin(), all.end(), v) == all.end()) {
            all.insert(std::upper_bound(all.begin(), all.end(), v), v);
        }
    }
}

std::vector<std::string> Measurer::probe_environment(const BenchmarkSpec& spec) const {
    exec::EnvironmentSpec env;
    env.requests = spec.env;
    env.underscore = valgrind::dynamic_loader_path();
    env.glibc_tunables = valgrind::glibc_tunables_for(settings_.cpu_baseline, settings_.geometry);
    return exec::build_environment(env, caller_).entries;
}

BenchmarkResult Measurer::start_result(const BenchmarkSpec& spec, valgrind::Tool tool) const {
    BenchmarkResult result;
    result.name = spec.name;
    result.command = spec.command;
    result.tool = std::string(valgrind::to_string(tool));
    result.weights = settings_.weights;
    result.threshold = spec.threshold;
    result.position = spec.position;
    return result;
}

BenchmarkResult Measurer::measure(const BenchmarkSpec& spec, int attempt) {
    BenchmarkResult result = start_result(spec, valgrind::Tool::Cachegrind);
    result.process_mode = spec.processes;
    const exec::OutputDir staging;
    const RawOutput raw = launch(spec, tool_options(settings_, valgrind::Tool::Cachegrind), {},
                                 staging.path(), result, attempt);
    score_processes(spec, raw, result);
    keep_raw(spec, attempt, raw, result);
    return result;
}

std::vector<BenchmarkResult> Measurer::measure_all(const BenchmarkSpec& spec, int attempt) {
    return measurement_for(spec, settings_, inst_).measure(*this, spec, attempt);
}

Measurer::RawOutput Measurer::launch(const BenchmarkSpec& spec,
                                     const valgrind::ToolOptions& options,
                                     const std::vector<std::string>& extra_args,
                                     const fs::path& staging, BenchmarkResult& result,
                                     int attempt) {
    const auto [cwd, program] = locate(spec);
    const exec::RunSandbox sandbox(program, cwd, staging, settings_.fixed);
    const std::string run_path = sandbox.program_path().string();

    std::vector<std::string> argv = {run_path};
    const auto args = sandbox.map_arguments({spec.command.begin() + 1, spec.command.end()});
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    argv = sandbox.map_output(argv);
    exec::EnvironmentSpec env_spec;
    env_spec.requests = spec.env;
    env_spec.underscore = run_path;
    env_spec.glibc_tunables =
        valgrind::glibc_tunables_for(settings_.cpu_baseline, settings_.geometry);
    env_spec.argv = argv;
    env_spec.preload = sandbox.preload();
    env_spec.fixed = settings_.fixed.clock && settings_.fixed.random ? "clock,random"
                     : settings_.fixed.clock                         ? "clock"
                                                                     : "random";
    const auto env = exec::build_environment(env_spec, caller_);
    if (env.over_budget) {
        result.warnings.push_back(fmt::format(
            "arguments and environment take {} bytes, over the {}-byte budget: counts now "
            "depend on their size",
            env.block_bytes, exec::kEnvBlockBudget));
    }

    RawOutput raw;
    raw.files = {staging, options.tool};
    raw.max_processes = spec.max_processes;
    raw.names = {run_path, program.as_given, sandbox.link().string()};
    const std::string joined = util::join(argv, " ");
    raw.cmd_lines = 1 + static_cast<std::size_t>(std::count(joined.begin(), joined.end(), '\n'));
    raw.cmd_program = run_path;
    exec::ProcessSpec ps;
    ps.argv = argv;
    ps.env = env.entries;
    ps.cwd = sandbox.cwd();
    ps.sandbox = sandbox.mounts();
    ps.stdin_path = spec.stdin_path;
    ps.timeout_seconds = spec.timeout_seconds;
    if (attempt == 0 && !warm_up(spec, ps, result)) return raw;

    ps.argv = valgrind::valgrind_command(inst_, options, raw.files, argv);
    ps.echo_output = settings_.echo_output;
    ps.process_limit = exec::ProcessSpec::ProcessLimit{staging, std::string(valgrind::kLogPrefix),
                                                       spec.max_processes};
    spdlog::debug("running: {}", util::shell_join(ps.argv));  // the host's paths
    spdlog::trace("environment: {}", util::shell_join(ps.env));
    ps.argv = sandbox.map_output(std::move(ps.argv));
    raw.outcome = runner_.run(ps);
    raw.root_pid = raw.outcome.pid;
    record_facts(raw.outcome.aslr_errno, env.block_bytes, spec.env);
    interpret(raw, spec.timeout_seconds, result);
    return raw;
}

bool Measurer::warm_up(const BenchmarkSpec& spec, const exec::ProcessSpec& native,
                       BenchmarkResult& result) {
    for (int i = 0; i < spec.warmup; ++i) {
        const auto outcome = runner_.run(native);
        if (outcome.how == exec::Termination::TimedOut) {
            result.status = BenchStatus::Timeout;
            result.wall_seconds = outcome.wall_seconds;
            result.error = timeout_error(outcome, native.timeout_seconds,
                                         "in its native warm-up run (--warmup)",
                                         util::printable(spec.command.front()));
            return false;
        }
        if (outcome.how == exec::Termination::SpawnFailed) return true;  // reported by the run
        if (outcome.unkillable_processes > 0) {
            result.status = BenchStatus::Failed;
            result.error = unkillable_error(outcome.unkillable_processes) + " (native warm-up run)";
            return false;
        }
    }
    return true;
}

std::string Measurer::valgrind_notes(const RawOutput& raw) const {
    std::vector<std::string> notes;
    for (const auto& p : traced_processes(raw.files, raw.root_pid)) {
        for (const auto& n : p.log.notes) {
            if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
        }
    }
    return util::join(notes, "; ");
}

// `limit`: the timeout, which a timeout's message names (not the wall time, a little longer).
void Measurer::interpret(const RawOutput& raw, std::optional<double> limit,
                         BenchmarkResult& result) const {
    using exec::Termination;
    const auto& outcome = raw.outcome;
    result.wall_seconds = outcome.wall_seconds;
    result.stderr_tail = last_lines(outcome.stderr_tail, 20);
    switch (outcome.how) {
        case Termination::SpawnFailed:
            if (outcome.spawn_step == "chdir") {
                throw UsageError(fmt::format("cannot enter the working directory of '{}': {}",
                                             util::printable(result.name),
                                             std::strerror(outcome.spawn_errno)));
            }
            throw EnvironmentError(
                fmt::format("cannot {} {}: {}", outcome.spawn_step == "fork" ? "start" : "execute",
                            inst_.launcher.string(), std::strerror(outcome.spawn_errno)),
                "reinstall valgrind or set CGBENCH_VALGRIND");
        case Termination::TimedOut:
            result.status = BenchStatus::Timeout;
            result.error = timeout_error(outcome, limit, "", inst_.launcher.string());
            return;
        case Termination::Limited:
            result.status = BenchStatus::Failed;
            result.error = fmt::format(
                "started more than {} processes (a fork bomb, or a loop of short-lived "
                "children?); everything it started was killed after {:.3g} s",
                raw.max_processes, outcome.wall_seconds);
            return;
        case Termination::Signaled:
            result.status = BenchStatus::Failed;
            result.signal = outcome.signal;
            result.error = "killed by " + exec::describe_signal(outcome.signal);
            if (const auto why = undecodable_instruction(traced_processes(raw.files, raw.root_pid));
                !why.empty()) {
                result.error += " from Valgrind, not from the program: " + why;
            }
            return;
        case Termination::Exited:
            break;
    }
    result.exit_code = outcome.exit_code;
    std::error_code ec;
    if (!fs::exists(raw.out_file(), ec)) {
        throw_if_tmp_full();
        no_profile(raw, result);
        return;
    }
    if (outcome.exit_code != 0) {
        result.status = BenchStatus::Failed;
        result.error = fmt::format("exited with status {}", outcome.exit_code);
        if (const std::string notes = valgrind_notes(raw); !notes.empty()) {
            result.error += " (valgrind: " + util::printable(notes) + ")";
        }
        return;
    }
}

void Measurer::no_profile(const RawOutput& raw, BenchmarkResult& result) const {
    std::error_code ec;
    if (!fs::exists(raw.log_file(), ec)) {
        // Valgrind stopped before the program ran: its message is on stderr.
        const std::string complaint = valgrind_complaint(raw.outcome.stderr_tail);
        if (util::starts_with(complaint, "valgrind: " + raw.names.link)) {
            throw UsageError(
                fmt::format("'{}' cannot be executed: {}", util::printable(result.command.front()),
                            complaint.substr(complaint.find(": ", 10) + 2)),
                "check its #! line or that it is a program for this machine");
        }
        throw EnvironmentError(
            fmt::format("valgrind exited with status {} before starting the program: {}",
                        raw.outcome.exit_code,
                        util::printable(complaint.empty() ? last_lines(raw.outcome.stderr_tail, 3)
                                                          : complaint)),
            fmt::format("run `valgrind --tool={} true` to check the installation", result.tool));
    }
    const auto log = [&] {
        try {
            return valgrind::parse_process_log(util::read_file(raw.log_file()));
        } catch (const Error&) {
            return valgrind::ProcessLog{};
        }
    }();
    const std::string notes = valgrind_notes(raw);
    result.status = BenchStatus::Failed;
    result.error = fmt::format(
        "valgrind wrote no profile for the started process (pid {}, last running '{}'), "
        "although it exited with status {}{}",
        raw.root_pid, util::printable(raw.names.display(log.command)), raw.outcome.exit_code,
        notes.empty() ? std::string(": the program's last exec was not followed")
                      : ": " + util::printable(notes));
}

void Measurer::score(const valgrind::Profile& profile, BenchmarkResult& result) const {
    result.events = profile.totals;
    result.derived = metrics::derive(result.events);
    result.cost = metrics::cost(result.events, settings_.weights);
    result.functions = top_functions(profile, settings_.weights);
    attach_lines(profile, settings_.weights, result);
    result.stderr_tail.clear();
}

namespace {

// "cachegrind.out.123" -> "cachegrind.out", "callgrind.out.123.4" -> "callgrind.out.4",
// "valgrind.log.123" -> "valgrind.log": a kept file's name without the pid.
std::string without_pid(const fs::path& file, int pid) {
    std::string name = file.filename().string();
    const std::string mark = fmt::format(".{}", pid);
    for (auto at = name.find(mark); at != std::string::npos; at = name.find(mark, at + 1)) {
        const auto end = at + mark.size();
        if (end == name.size() || name[end] == '.') return name.erase(at, mark.size());
    }
    return name;
}

}  // namespace

void Measurer::keep_raw(const BenchmarkSpec& spec, int attempt, const RawOutput& raw,
                        BenchmarkResult& result, const std::vector<fs::path>& extra) const {
    if (settings_.keep_raw_dir.empty() || raw.root_pid == 0) return;
    const std::string stem = util::file_safe(spec.name) +
                             (attempt > 0 ? fmt::format(".{}", attempt + 1) : std::string());
    // NAME.cachegrind.out, or NAME.callgrind.out with its dump parts NAME.callgrind.out.N;
    // NAME.valgrind.log. The other processes of a whole-program run: NAME.process-K.*, K as
    // in the result's list. Then `extra` as NAME.<its file name>.
    std::vector<std::pair<fs::path, std::string>> files;
    const auto add = [&](const TracedProcess& p, const std::string& infix) {
        for (const auto& f : valgrind::callgrind_part_files(raw.files.out_file(p.pid)))
            files.emplace_back(f, stem + infix + "." + without_pid(f, p.pid));
        files.emplace_back(p.log_file, stem + infix + "." + without_pid(p.log_file, p.pid));
    };
    const auto traced = traced_processes(raw.files, raw.root_pid);
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
            if (file == raw.out_file()) result.raw_file = dest.string();
        } catch (const Error& e) {
            // The measurement stands; only the copy is missing.
            result.warnings.push_back(fmt::format("--keep-raw: {}", e.what()));
        }
    }
}

}  // namespace cgbench::runner
