#include "config/benchmark_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "base/errors.hpp"
#include "compare/threshold.hpp"
#include "core/result_json.hpp"
#include "util/regex.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace fs = std::filesystem;

namespace {

std::optional<double> parse_timeout(const Layered& t) {
    if (t.value.empty()) return std::nullopt;
    const auto v = util::parse_seconds(t.value);
    if (!v || *v <= 0) {
        throw UsageError(
            fmt::format("invalid timeout '{}' (from {})", util::printable(t.value), t.origin),
            "give a positive number of seconds, e.g. --timeout 600");
    }
    return v;
}

std::string checked_threshold(const Layered& t) {
    if (t.value.empty()) return {};
    try {
        return compare::validate_threshold(t.value);
    } catch (const UsageError& e) {
        throw UsageError(fmt::format("{} (from {})", e.what(), t.origin), e.hint());
    }
}

std::string env_text(const exec::EnvRequest& r) {
    return r.value ? r.name + "=" + *r.value : r.name;
}

// The layers every benchmark shares: environment variables and the command line.
void layer_overrides(BenchmarkSettings& b, const RunInput& in, const exec::EnvMap& env) {
    apply_env(b.timeout, env, "CGBENCH_TIMEOUT");
    apply(b.timeout, in.timeout, Source::CommandLine, "--timeout");
    apply_env(b.threshold, env, "CGBENCH_THRESHOLD");
    apply(b.threshold, in.threshold, Source::CommandLine, "--threshold");
    if (in.regions) b.regions = {"on", Source::CommandLine, "--regions"};
    apply_env(b.processes, env, "CGBENCH_PROCESSES");
    apply(b.processes, in.processes, Source::CommandLine, "--processes");
    apply_env(b.warmup, env, "CGBENCH_WARMUP");
    apply(b.warmup, in.warmup, Source::CommandLine, "--warmup");
    apply(b.max_processes, in.max_processes, Source::CommandLine, "--max-processes");
    if (in.allow_child_crash) {
        b.allow_child_crash = {"on", Source::CommandLine, "--allow-child-crash"};
    }
    for (const auto& e : in.env)
        b.env.push_back({e, Source::CommandLine, "--env"});
}

// A whole number of at least `min` from a layered setting.
std::size_t parse_count(const Layered& l, std::string_view what, std::uint64_t min) {
    const auto v = util::parse_u64(l.value);
    if (!v || *v < min || *v > 1000000) {
        throw UsageError(
            fmt::format("invalid {} '{}' (from {})", what, util::printable(l.value), l.origin),
            fmt::format("give a whole number of at least {}", min));
    }
    return static_cast<std::size_t>(*v);
}

ProcessMode parse_processes(const Layered& l) {
    const auto mode = process_mode_from(l.value);
    if (!mode) {
        throw UsageError(
            fmt::format("invalid processes '{}' (from {})", util::printable(l.value), l.origin),
            "give tree (every process the program starts) or main (the started "
            "process and what it execs into)");
    }
    return *mode;
}

// Parses the layered values into `spec`.
void finish(runner::BenchmarkSpec& spec, const BenchmarkSettings& b, RunPlan& plan) {
    spec.timeout_seconds = parse_timeout(b.timeout);
    spec.processes = parse_processes(b.processes);
    spec.warmup = static_cast<int>(parse_count(b.warmup, "warmup", 0));
    spec.verify_new = static_cast<int>(parse_count(b.verify, "verify", 1));
    spec.max_processes = parse_count(b.max_processes, "max-processes", 1);
    spec.allow_child_crash = b.allow_child_crash.value == "on";
    spec.threshold = checked_threshold(b.threshold);
    if (b.regions.value == "on") spec.kind = runner::MeasureKind::Regions;
    for (const auto& e : b.env)
        spec.env.push_back(exec::parse_env_request(e.value));
    plan.request.benchmarks.push_back(std::move(spec));
    plan.benchmark_settings.push_back(b);
}

fs::path relative_to(const fs::path& dir, const std::string& path) {
    const fs::path p(path);
    return (p.is_absolute() ? p : dir / p).lexically_normal();
}

void reject_single_program_options(const RunInput& in) {
    for (const auto& [given, flag] :
         {std::pair{in.name.has_value(), "--name"}, std::pair{in.cwd.has_value(), "--cwd"},
          std::pair{in.stdin_path.has_value(), "--stdin"}}) {
        if (given) {
            throw UsageError(fmt::format("{} applies to a single program, not to a suite", flag),
                             "set it per [[bench]] entry in the suite file");
        }
    }
}

// Every entry's name matched against --filter; UsageError for a bad regex or no match.
std::vector<bool> filter_matches(const Suite& suite, const std::optional<std::string>& filter) {
    std::vector<bool> keep(suite.entries.size(), true);
    if (!filter) return keep;
    const util::Regex re = filter_regex(*filter);
    // [[gbench]] entries are kept: the filter selects their benchmarks once listed.
    for (std::size_t i = 0; i < keep.size(); ++i)
        keep[i] = suite.entries[i].gbench || re.search(suite.entries[i].name);
    if (std::find(keep.begin(), keep.end(), true) == keep.end()) {
        throw UsageError(fmt::format("no benchmark in {} matches --filter '{}'",
                                     suite.path.string(), util::printable(*filter)),
                         "the filter is a regular expression searched in each name; `cgbench "
                         "config show` lists the names");
    }
    return keep;
}

// The layers of one suite entry up to the suite itself: built-in, [defaults], the entry.
BenchmarkSettings entry_settings(const Suite& suite, const SuiteEntry& e) {
    const auto& d = suite.defaults;
    const auto layer = [&](Layered& l, const std::optional<SuiteValue>& v, Source source) {
        if (v) l = Layered{v->text, source, suite.origin(v->line)};
    };
    const auto path_layer = [&](Layered& l, const std::optional<SuiteValue>& v) {
        if (v)
            l = {relative_to(suite.dir, v->text).string(), Source::SuiteEntry,
                 suite.origin(v->line)};
    };
    BenchmarkSettings b;
    b.command = {util::shell_join(e.command), Source::SuiteEntry, suite.origin(e.line)};
    b.cwd = {suite.dir.string(), Source::Default, "built-in: the suite's directory"};
    path_layer(b.cwd, e.cwd);
    b.stdin_path = layered_default("/dev/null");
    path_layer(b.stdin_path, e.stdin_path);
    for (const auto& [env, source] :
         {std::pair{&d.env, Source::SuiteDefaults}, std::pair{&e.env, Source::SuiteEntry}}) {
        if (!*env) continue;
        for (const auto& r : (*env)->requests) {
            b.env.push_back({env_text(r), source, suite.origin((*env)->line)});
        }
    }
    layer(b.timeout, d.timeout, Source::SuiteDefaults);
    layer(b.timeout, e.timeout, Source::SuiteEntry);
    layer(b.threshold, d.threshold, Source::SuiteDefaults);
    layer(b.threshold, e.threshold, Source::SuiteEntry);
    layer(b.regions, e.regions, Source::SuiteEntry);
    layer(b.warmup, d.warmup, Source::SuiteDefaults);
    layer(b.warmup, e.warmup, Source::SuiteEntry);
    layer(b.verify, d.verify, Source::SuiteDefaults);
    layer(b.verify, e.verify, Source::SuiteEntry);
    for (const auto& [p, source] : {std::pair{&d.process, Source::SuiteDefaults},
                                    std::pair{&e.process, Source::SuiteEntry}}) {
        layer(b.processes, p->processes, source);
        layer(b.allow_child_crash, p->allow_child_crash, source);
        layer(b.max_processes, p->max_processes, source);
    }
    if (e.gbench) {
        b.gbench = {"all benchmarks", Source::SuiteEntry, suite.origin(e.line)};
        layer(b.gbench, e.filter, Source::SuiteEntry);
    }
    return b;
}

}  // namespace

namespace {

// Whether `rest` is what --keep-raw appends to a benchmark's stem before the file's own
// name: ".process-K" (its K-th process), ".N" (the N-th run of --verify, when `verify`), or
// both.
bool raw_infix(std::string_view rest, bool verify) {
    const auto number = [](std::string_view& s) {
        const auto digits = s.find_first_not_of("0123456789");
        const auto n = digits == std::string_view::npos ? s.size() : digits;
        s.remove_prefix(n);
        return n > 0;
    };
    if (rest.empty() || rest.front() != '.') return false;
    rest.remove_prefix(1);
    if (verify && number(rest)) {
        if (rest.empty()) return true;
        if (rest.front() != '.') return false;
        rest.remove_prefix(1);
    }
    return util::starts_with(rest, "process-") && (rest.remove_prefix(8), number(rest)) &&
           rest.empty();
}

[[noreturn]] void raw_names_clash(const std::string& a, const std::string& b,
                                  const std::string& files) {
    throw UsageError(fmt::format("benchmarks '{}' and '{}' would share --keep-raw file names ({})",
                                 util::printable(a), util::printable(b), files),
                     "rename one of them");
}

}  // namespace

// Also used by gbench_plan.cpp once targets are listed. Two stems clash when equal, or when
// one is the other plus an infix keep_raw adds (`a` with several processes writes
// a.process-2.*, which is also what a benchmark named `a.process-2` writes).
void check_raw_names(const RunPlan& plan) {
    if (plan.request.settings.keep_raw_dir.empty()) return;
    std::map<std::string, std::string> seen;  // stem -> name
    for (const auto& spec : plan.request.benchmarks) {
        const auto [it, fresh] = seen.emplace(util::file_safe(spec.name), spec.name);
        if (!fresh) raw_names_clash(it->second, spec.name, it->first);
    }
    for (const auto& [stem, name] : seen) {
        const std::string prefix = stem + ".";
        for (auto next = seen.lower_bound(prefix);
             next != seen.end() && util::starts_with(next->first, prefix); ++next) {
            if (raw_infix(std::string_view(next->first).substr(stem.size()),
                          plan.request.verify > 1)) {
                raw_names_clash(name, next->second, next->first + ".*");
            }
        }
    }
}

void plan_single_benchmark(const RunInput& in, const exec::EnvMap& env, RunPlan& plan) {
    runner::BenchmarkSpec spec;
    spec.command = in.command;
    // Bytes that are not UTF-8 (a file name in another encoding) become U+FFFD here, so every
    // output shows the one name the history stores.
    spec.name = as_json_text(in.name ? *in.name : runner::default_benchmark_name(in.command));
    if (in.gbench) {
        if (in.regions) {
            throw UsageError("--regions and --gbench do not go together",
                             "--gbench already measures each benchmark's loop on its own");
        }
        spec.command.insert(spec.command.begin(), *in.gbench);
        spec.name = in.name ? *in.name : fs::path(*in.gbench).filename().string();
        spec.gbench = runner::GbenchTarget{in.filter.value_or(""), {}, "0"};
        spec.kind = runner::MeasureKind::Gbench;
    }
    if (spec.name.empty()) throw UsageError("--name cannot be empty");
    if (in.cwd) spec.cwd = *in.cwd;
    if (in.stdin_path) spec.stdin_path = *in.stdin_path;
    BenchmarkSettings b;
    b.command = {util::shell_join(in.command), Source::CommandLine, "PROGRAM ARGS"};
    b.cwd = Layered{"(the current directory)", Source::Default, "built-in"};
    apply(b.cwd, in.cwd, Source::CommandLine, "--cwd");
    b.stdin_path = layered_default("/dev/null");
    apply(b.stdin_path, in.stdin_path, Source::CommandLine, "--stdin");
    if (in.gbench) {
        b.command = {util::shell_join(spec.command), Source::CommandLine, "--gbench BINARY ARGS"};
        b.gbench = {"all benchmarks", Source::CommandLine, "--gbench"};
        apply(b.gbench, in.filter, Source::CommandLine, "--filter");
    }
    layer_overrides(b, in, env);
    finish(spec, b, plan);
}

void plan_suite_benchmarks(const Suite& suite, const RunInput& in, const exec::EnvMap& env,
                           RunPlan& plan) {
    reject_single_program_options(in);
    const auto keep = filter_matches(suite, in.filter);
    for (std::size_t i = 0; i < suite.entries.size(); ++i) {
        if (!keep[i]) continue;
        const SuiteEntry& e = suite.entries[i];
        BenchmarkSettings b = entry_settings(suite, e);
        layer_overrides(b, in, env);
        runner::BenchmarkSpec spec;
        spec.name = e.name;
        spec.command = e.command;
        spec.base_dir = suite.dir;
        spec.position = i;
        spec.cwd = b.cwd.value;
        if (e.stdin_path) spec.stdin_path = b.stdin_path.value;
        if (e.gbench) {
            if (b.regions.value == "on") {
                throw UsageError(fmt::format("--regions does not apply to [[gbench]] '{}'",
                                             util::printable(e.name)),
                                 "drop --regions, or --filter the [[bench]] entries");
            }
            spec.gbench = runner::GbenchTarget{e.filter ? e.filter->text : "", {}, "0"};
            spec.kind = runner::MeasureKind::Gbench;
        }
        finish(spec, b, plan);
    }
    if (in.filter) plan.gbench_name_filter = in.filter;
    check_raw_names(plan);
}

util::Regex filter_regex(const std::string& filter) {
    try {
        return util::Regex(filter);
    } catch (const std::invalid_argument& e) {
        throw UsageError(
            fmt::format("invalid --filter '{}': {}", util::printable(filter), e.what()),
            "give a regular expression (RE2 syntax), e.g. --filter '^parse/'");
    }
}

}  // namespace cgbench::config
