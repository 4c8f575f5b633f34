#include "core/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "base/errors.hpp"
#include "core/result_check.hpp"
#include "util/mapped_file.hpp"
#include "util/strings.hpp"

namespace cgbench {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

ojson events_json(const metrics::EventCounts& counts) {
    ojson events = ojson::object();
    for (const auto& e : metrics::kEvents) {
        if (counts.has(e.id)) events[std::string(e.name)] = counts.get(e.id);
    }
    return events;
}

// {"l1_hits": N, "ll_hits": N, "ram_hits": N}, keyed by the table of metrics; null without
// cache simulation.
ojson derived_json(const BenchmarkResult& b) {
    if (!b.derived) return nullptr;
    ojson j = ojson::object();
    for (const auto& h : metrics::kHits) {
        j[std::string(h.name)] = *metrics::Metric::hits(h.id).value(b.events, b.derived, b.cost);
    }
    return j;
}

ojson weights_json(const metrics::Weights& w) {
    ojson j;
    j["l1"] = w.l1;
    j["ll"] = w.ll;
    j["ram"] = w.ram;
    j["preset"] = w.name;
    if (w.instructions_only) j["instructions_only"] = true;
    // Only when there is one, so the documents of runs without it are what they were.
    if (w.mispredict > 0) j["mispredict"] = w.mispredict;
    return j;
}

ojson geometry_json(const valgrind::Geometry& g) {
    return ojson{{"name", g.name}, {"I1", g.i1.arg()}, {"D1", g.d1.arg()}, {"LL", g.ll.arg()}};
}

ojson selection_json(const valgrind::GlibcSelection& s) {
    if (!s.available) return ojson(nullptr);
    return ojson{{"id", s.id},
                 {"platform", s.platform},
                 {"usable", s.usable},
                 {"preferred", s.preferred},
                 {"tuning", s.tuning}};
}

// Reads a value with a clear message when the key is missing or has the wrong type.
class Reader {
  public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw UsageError(fmt::format("{}: invalid result file: {}", source_, what),
                         "pass a file written by `cgbench run --out`");
    }
    const json& at(const json& obj, std::string_view key, std::string_view where) const {
        if (!obj.is_object()) fail(fmt::format("{} is not an object", where));
        const auto it = obj.find(key);
        if (it == obj.end()) fail(fmt::format("{} has no \"{}\"", where, key));
        return *it;
    }
    std::string str(const json& obj, std::string_view key, std::string_view where) const {
        const json& v = at(obj, key, where);
        if (!v.is_string()) fail(fmt::format("{}.{} is not a string", where, key));
        return v.get<std::string>();
    }
    std::uint64_t u64(const json& v, std::string_view what) const {
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
            fail(fmt::format("{} is not a non-negative integer", what));
        }
        return v.get<std::uint64_t>();
    }

  private:
    std::string source_;
};

std::optional<std::string> opt_str(const json& obj, std::string_view key) {
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

metrics::Weights read_weights(const Reader& r, const json& j) {
    metrics::Weights w;
    w.l1 = r.u64(r.at(j, "l1", "weights"), "weights.l1");
    w.ll = r.u64(r.at(j, "ll", "weights"), "weights.ll");
    w.ram = r.u64(r.at(j, "ram", "weights"), "weights.ram");
    w.name = j.value("preset", std::string("custom"));
    w.instructions_only = j.value("instructions_only", false);
    if (j.contains("mispredict")) w.mispredict = r.u64(j.at("mispredict"), "weights.mispredict");
    return w;
}

valgrind::CacheSpec read_cache(const Reader& r, const json& g, std::string_view key) {
    const std::string text = r.str(g, key, "fingerprint.geometry");
    try {
        const auto geo = valgrind::parse_geometry(fmt::format("{}={}", key, text));
        return key == "I1" ? geo.i1 : key == "D1" ? geo.d1 : geo.ll;
    } catch (const UsageError&) {
        r.fail(fmt::format("fingerprint.geometry.{} is not a valid cache", key));
    }
}

std::vector<std::string> read_strings(const json& obj, std::string_view key) {
    std::vector<std::string> out;
    if (const auto it = obj.find(key); it != obj.end() && it->is_array()) {
        for (const auto& s : *it) {
            if (s.is_string()) out.push_back(s.get<std::string>());
        }
    }
    return out;
}

Fingerprint read_fingerprint(const Reader& r, const json& j) {
    Fingerprint f;
    f.cgbench_version = j.value("cgbench", "");
    f.tool = r.str(j, "tool", "fingerprint");
    f.valgrind_version = j.value("valgrind", "");
    f.valgrind_launcher = j.value("valgrind_launcher", "");
    f.valgrind_wrapper_bypassed = j.value("valgrind_wrapper_bypassed", false);
    f.glibc_version = j.value("glibc", "");
    f.arch = j.value("arch", "");
    const json& g = r.at(j, "geometry", "fingerprint");
    f.geometry.name = g.value("name", "custom");
    f.geometry.i1 = read_cache(r, g, "I1");
    f.geometry.d1 = read_cache(r, g, "D1");
    f.geometry.ll = read_cache(r, g, "LL");
    f.cache_sim = j.value("cache_sim", true);
    f.branch_sim = j.value("branch_sim", false);
    f.weights = read_weights(r, r.at(j, "weights", "fingerprint"));
    f.cpu_baseline = j.value("cpu_baseline", "");
    f.glibc_tunables = j.value("glibc_tunables", "");
    if (const auto it = j.find("glibc_selection"); it != j.end() && it->is_object()) {
        f.selection.available = true;
        f.selection.glibc_version = f.glibc_version;
        f.selection.id = it->value("id", "");
        f.selection.platform = it->value("platform", "");
        f.selection.usable = it->value("usable", "");
        f.selection.preferred = it->value("preferred", "");
        f.selection.tuning = it->value("tuning", "");
    }
    f.aslr = j.value("aslr", "");
    f.env_block_bytes = j.value("env_block_bytes", std::size_t{0});
    f.loader_cache = j.value("loader_cache", "");
    f.compilers = read_strings(j, "compilers");
    f.valgrind_options = read_strings(j, "valgrind_options");
    f.loader_env = read_strings(j, "loader_env");
    f.isolation = j.value("isolation", "");
    f.fixed_inputs = j.value("fixed_inputs", "");
    return f;
}

// The "verify" object of a benchmark (--verify N), if present.
void read_verify(const Reader& r, const json& j, const std::string& where, BenchmarkResult& b) {
    const auto it = j.find("verify");
    if (it == j.end() || !it->is_object()) return;
    b.runs = it->value("runs", 1);
    if (const auto sp = it->find("spread"); sp != it->end() && sp->is_object()) {
        for (const auto& [key, range] : sp->items()) {
            const auto e = metrics::event_from_name(key);
            if (!e || !range.is_object()) r.fail(where + ".verify.spread is malformed");
            b.spread.push_back({*e, r.u64(r.at(range, "min", key), key + ".min"),
                                r.u64(r.at(range, "max", key), key + ".max")});
        }
    }
}

metrics::EventCounts read_events(const Reader& r, const json& events, const std::string& where) {
    if (!events.is_object()) r.fail(where + " is not an object");
    metrics::EventCounts out;
    for (const auto& [key, value] : events.items()) {
        const auto e = metrics::event_from_name(key);
        if (!e) r.fail(fmt::format("{} has unknown event \"{}\"", where, key));
        out.set(*e, r.u64(value, where + "." + key));
    }
    return out;
}

// The array `key` of `j` (none: empty), each element read by `read(element, at, index)`
// where `at` names it for error messages.
template <typename T, typename Read>
std::vector<T> read_array(const Reader& r, const json& j, const std::string& where,
                          const std::string& key, Read read) {
    std::vector<T> out;
    const auto it = j.find(key);
    if (it == j.end()) return out;
    if (!it->is_array()) r.fail(fmt::format("{}.{} is not an array", where, key));
    for (std::size_t i = 0; i < it->size(); ++i)
        out.push_back(read((*it)[i], fmt::format("{}.{}[{}]", where, key, i), i));
    return out;
}

std::vector<FunctionResult> read_functions(const Reader& r, const json& j,
                                           const std::string& where) {
    return read_array<FunctionResult>(
        r, j, where, "functions", [&](const json& f, const std::string& at, std::size_t) {
            return FunctionResult{r.str(f, "file", at), r.str(f, "name", at),
                                  read_events(r, r.at(f, "events", at), at + ".events"),
                                  r.u64(r.at(f, "cost", at), at + ".cost")};
        });
}

std::vector<LineResult> read_lines(const Reader& r, const json& j, const std::string& where) {
    return read_array<LineResult>(
        r, j, where, "lines", [&](const json& l, const std::string& at, std::size_t) {
            const std::uint64_t line = r.u64(r.at(l, "line", at), at + ".line");
            if (line == 0 || line > UINT32_MAX) r.fail(at + ".line is not a line number");
            return LineResult{r.str(l, "file", at),
                              r.str(l, "function", at),
                              static_cast<std::uint32_t>(line),
                              l.contains("text") ? r.str(l, "text", at) : std::string(),
                              read_events(r, r.at(l, "events", at), at + ".events"),
                              r.u64(r.at(l, "cost", at), at + ".cost")};
        });
}

ProcessResult read_process(const Reader& r, const json& p, const std::string& at, std::size_t i) {
    ProcessResult proc;
    proc.command = r.str(p, "command", at);
    if (const auto parent = p.find("parent"); parent != p.end() && !parent->is_null()) {
        proc.parent = static_cast<std::size_t>(r.u64(*parent, at + ".parent"));
        if (*proc.parent >= i) r.fail(at + ".parent does not name an earlier process");
    }
    proc.forked = p.value("forked", false);
    proc.counted = p.value("counted", true);
    proc.profiled = p.value("profiled", true);
    if (const auto e = p.find("exit_code"); e != p.end() && e->is_number_integer()) {
        proc.exit_code = e->get<int>();
    }
    if (const auto s = p.find("signal"); s != p.end() && s->is_number_integer()) {
        proc.signal = s->get<int>();
    }
    proc.events = read_events(r, r.at(p, "events", at), at + ".events");
    proc.cost = r.u64(r.at(p, "cost", at), at + ".cost");
    return proc;
}

std::vector<ProcessResult> read_processes(const Reader& r, const json& j,
                                          const std::string& where) {
    return read_array<ProcessResult>(r, j, where, "processes",
                                     [&](const json& p, const std::string& at, std::size_t i) {
                                         return read_process(r, p, at, i);
                                     });
}

BenchmarkResult read_benchmark(const Reader& r, const json& j, std::size_t index) {
    const std::string where = fmt::format("benchmarks[{}]", index);
    BenchmarkResult b;
    b.name = r.str(j, "name", where);
    const json& cmd = r.at(j, "command", where);
    if (!cmd.is_array()) r.fail(where + ".command is not an array");
    for (const auto& a : cmd) {
        if (!a.is_string()) r.fail(where + ".command holds a non-string");
        b.command.push_back(a.get<std::string>());
    }
    const auto status = bench_status_from(r.str(j, "status", where));
    if (!status) r.fail(where + ".status is not ok, failed or timeout");
    b.status = *status;
    b.tool = j.value("tool", "cachegrind");
    if (const auto it = j.find("exit_code"); it != j.end() && it->is_number_integer()) {
        b.exit_code = it->get<int>();
    }
    if (const auto it = j.find("signal"); it != j.end() && it->is_number_integer()) {
        b.signal = it->get<int>();
    }
    b.events = read_events(r, r.at(j, "events", where), where + ".events");
    b.weights = read_weights(r, r.at(j, "weights", where));
    b.derived = metrics::derive(b.events);
    b.cost = r.u64(r.at(j, "cost", where), where + ".cost");
    const json& wall = r.at(j, "wall_seconds", where);
    if (!wall.is_number()) r.fail(where + ".wall_seconds is not a number");
    b.wall_seconds = wall.get<double>();
    b.error = j.value("error", "");
    b.stderr_tail = j.value("stderr_tail", "");
    b.warnings = read_strings(j, "warnings");
    if (const auto it = j.find("threads"); it != j.end()) {
        b.threads = static_cast<int>(r.u64(*it, where + ".threads"));
    }
    b.raw_file = j.value("raw_file", "");
    b.threshold = j.value("threshold", "");
    if (const auto it = j.find("position"); it != j.end()) {
        b.position = static_cast<std::size_t>(r.u64(*it, where + ".position"));
    }
    b.functions = read_functions(r, j, where);
    b.lines = read_lines(r, j, where);
    if (const auto it = j.find("line_info"); it != j.end()) {
        if (!it->is_boolean()) r.fail(where + ".line_info is not true or false");
        b.line_info = it->get<bool>();
    }
    if (const auto it = j.find("region"); it != j.end()) {
        if (!it->is_object()) r.fail(where + ".region is not an object");
        b.region =
            RegionInfo{r.str(*it, "name", where + ".region"),
                       r.u64(r.at(*it, "entries", where + ".region"), where + ".region.entries")};
    }
    if (const auto it = j.find("gbench"); it != j.end()) {
        if (!it->is_object()) r.fail(where + ".gbench is not an object");
        const std::string at = where + ".gbench";
        b.gbench = GbenchInfo{r.str(*it, "benchmark", at),
                              r.u64(r.at(*it, "iterations", at), at + ".iterations"),
                              r.u64(r.at(*it, "repetitions", at), at + ".repetitions")};
    }
    if (const auto it = j.find("process_mode"); it != j.end()) {
        const auto mode =
            it->is_string() ? process_mode_from(it->get<std::string>()) : std::nullopt;
        if (!mode) r.fail(where + ".process_mode is not \"tree\" or \"main\"");
        b.process_mode = *mode;
    }
    b.processes = read_processes(r, j, where);
    read_verify(r, j, where, b);
    return b;
}

}  // namespace

ojson to_json(const Fingerprint& f) {
    ojson j;
    j["cgbench"] = f.cgbench_version;
    j["tool"] = f.tool;
    j["valgrind"] = f.valgrind_version;
    j["valgrind_launcher"] = f.valgrind_launcher;
    j["valgrind_wrapper_bypassed"] = f.valgrind_wrapper_bypassed;
    j["glibc"] = f.glibc_version;
    j["arch"] = f.arch;
    j["geometry"] = geometry_json(f.geometry);
    j["cache_sim"] = f.cache_sim;
    j["branch_sim"] = f.branch_sim;
    j["weights"] = weights_json(f.weights);
    j["cpu_baseline"] = f.cpu_baseline;
    j["glibc_tunables"] = f.glibc_tunables;
    j["glibc_selection"] = selection_json(f.selection);
    j["aslr"] = f.aslr;
    j["env_block_bytes"] = f.env_block_bytes;
    if (!f.loader_cache.empty()) j["loader_cache"] = f.loader_cache;
    if (!f.compilers.empty()) j["compilers"] = f.compilers;
    j["valgrind_options"] = f.valgrind_options;
    if (!f.loader_env.empty()) j["loader_env"] = f.loader_env;
    if (!f.isolation.empty()) j["isolation"] = f.isolation;
    if (!f.fixed_inputs.empty()) j["fixed_inputs"] = f.fixed_inputs;
    j["key"] = f.comparison_key();
    return j;
}

ojson to_json(const BenchmarkResult& b) {
    ojson j;
    j["name"] = b.name;
    j["command"] = b.command;
    j["status"] = std::string(to_string(b.status));
    j["tool"] = b.tool;
    j["exit_code"] = json_or_null(b.exit_code);
    if (b.signal) j["signal"] = *b.signal;
    j["events"] = events_json(b.events);
    j["derived"] = derived_json(b);
    j["weights"] = weights_json(b.weights);
    j["cost"] = b.cost;
    j["wall_seconds"] = b.wall_seconds;
    if (!b.error.empty()) j["error"] = b.error;
    if (!b.stderr_tail.empty()) j["stderr_tail"] = b.stderr_tail;
    if (!b.warnings.empty()) j["warnings"] = b.warnings;
    if (b.threads > 1) j["threads"] = b.threads;
    if (!b.raw_file.empty()) j["raw_file"] = b.raw_file;
    if (!b.threshold.empty()) j["threshold"] = b.threshold;
    if (b.position) j["position"] = *b.position;
    if (!b.functions.empty()) {
        ojson functions = ojson::array();
        for (const auto& f : b.functions)
            functions.push_back(to_json(f));
        j["functions"] = std::move(functions);
    }
    if (!b.lines.empty()) {
        ojson lines = ojson::array();
        for (const auto& l : b.lines)
            lines.push_back(to_json(l));
        j["lines"] = std::move(lines);
    }
    if (b.line_info) j["line_info"] = *b.line_info;
    if (b.region) j["region"] = ojson{{"name", b.region->name}, {"entries", b.region->entries}};
    if (b.gbench) {
        j["gbench"] = ojson{{"benchmark", b.gbench->benchmark},
                            {"iterations", b.gbench->iterations},
                            {"repetitions", b.gbench->repetitions}};
    }
    if (b.process_mode != ProcessMode::Tree)
        j["process_mode"] = std::string(to_string(b.process_mode));
    if (!b.processes.empty()) {
        ojson processes = ojson::array();
        for (const auto& p : b.processes)
            processes.push_back(to_json(p));
        j["processes"] = std::move(processes);
    }
    if (b.runs > 1) {
        ojson spread = ojson::object();
        for (const auto& s : b.spread) {
            spread[std::string(metrics::info(s.event).name)] =
                ojson{{"min", s.min}, {"max", s.max}};
        }
        j["verify"] = ojson{{"runs", b.runs}, {"identical", b.spread.empty()}, {"spread", spread}};
    }
    return j;
}

ojson to_json(const ProcessResult& p) {
    ojson j;
    j["command"] = p.command;
    j["parent"] = json_or_null(p.parent);
    j["forked"] = p.forked;
    j["counted"] = p.counted;
    j["profiled"] = p.profiled;
    j["exit_code"] = json_or_null(p.exit_code);
    if (p.signal) j["signal"] = *p.signal;
    j["events"] = events_json(p.events);
    j["cost"] = p.cost;
    return j;
}

ojson to_json(const FunctionResult& f) {
    return ojson{
        {"file", f.file}, {"name", f.name}, {"events", events_json(f.events)}, {"cost", f.cost}};
}

ojson to_json(const LineResult& l) {
    ojson j{{"file", l.file}, {"function", l.function}, {"line", l.line}};
    if (!l.text.empty()) j["text"] = l.text;
    j["events"] = events_json(l.events);
    j["cost"] = l.cost;
    return j;
}

ojson to_json(const GitInfo& git) {
    ojson j{{"commit", json_or_null(git.commit)},
            {"branch", json_or_null(git.branch)},
            {"dirty", json_or_null(git.dirty)}};
    // The commit's own facts, only when read (older files lack them).
    if (git.commit_time) j["commit_time"] = *git.commit_time;
    if (git.author_time) j["author_time"] = *git.author_time;
    if (git.commit_time || !git.parents.empty()) j["parents"] = git.parents;
    if (git.subject) j["subject"] = *git.subject;
    if (git.first_parent_depth) j["first_parent_depth"] = *git.first_parent_depth;
    if (git.shallow) j["shallow"] = *git.shallow;
    return j;
}

GitInfo git_from_json(const json& j) {
    GitInfo git;
    git.commit = opt_str(j, "commit");
    git.branch = opt_str(j, "branch");
    if (const auto d = j.find("dirty"); d != j.end() && d->is_boolean()) git.dirty = d->get<bool>();
    git.commit_time = opt_str(j, "commit_time");
    git.author_time = opt_str(j, "author_time");
    git.parents = read_strings(j, "parents");
    git.subject = opt_str(j, "subject");
    if (const auto d = j.find("first_parent_depth"); d != j.end() && d->is_number_unsigned()) {
        git.first_parent_depth = d->get<std::uint64_t>();
    }
    if (const auto s = j.find("shallow"); s != j.end() && s->is_boolean()) {
        git.shallow = s->get<bool>();
    }
    return git;
}

ojson to_json(const RunResult& run) {
    ojson j;
    j["schema"] = std::string(kResultSchema);
    ojson r;
    r["id"] = run.id;
    r["started"] = run.started;
    r["git"] = to_json(run.git);
    r["fingerprint"] = to_json(run.fingerprint);
    if (!run.warnings.empty()) r["warnings"] = run.warnings;
    if (!run.shard.empty()) r["shard"] = run.shard;
    if (!run.shard_balance.empty()) r["shard_balance"] = run.shard_balance;
    if (!run.shard_suite.empty()) r["shard_suite"] = run.shard_suite;
    if (!run.recorded_by.empty()) r["recorded_by"] = run.recorded_by;
    j["run"] = std::move(r);
    ojson benches = ojson::array();
    for (const auto& b : run.benchmarks)
        benches.push_back(to_json(b));
    j["benchmarks"] = std::move(benches);
    return j;
}

namespace {

RunResult read_run(const json& doc, const std::string& source) {
    const Reader r(source);
    const std::string schema = r.str(doc, "schema", "the document");
    if (schema != kResultSchema) {
        r.fail(fmt::format("schema is \"{}\", this cgbench reads \"{}\"", schema, kResultSchema));
    }
    const json& run = r.at(doc, "run", "the document");
    RunResult out;
    out.id = r.str(run, "id", "run");
    if (out.id.empty()) r.fail("run.id is empty");
    out.started = r.str(run, "started", "run");
    if (const auto it = run.find("git"); it != run.end() && it->is_object()) {
        out.git = git_from_json(*it);
    }
    out.fingerprint = read_fingerprint(r, r.at(run, "fingerprint", "run"));
    out.warnings = read_strings(run, "warnings");
    out.shard = run.value("shard", "");
    out.shard_balance = run.value("shard_balance", "");
    out.shard_suite = run.value("shard_suite", "");
    out.recorded_by = run.value("recorded_by", "");
    const json& benches = r.at(doc, "benchmarks", "the document");
    if (!benches.is_array()) r.fail("benchmarks is not an array");
    for (std::size_t i = 0; i < benches.size(); ++i) {
        out.benchmarks.push_back(read_benchmark(r, benches[i], i));
    }
    return out;
}

}  // namespace

RunResult run_from_json(const json& doc, const std::string& source) {
    RunResult out;
    try {
        out = read_run(doc, source);
    } catch (const json::exception& e) {
        // A value of another type than the key's (`"preset": 5`), met by value()/get().
        Reader(source).fail(util::printable(e.what()));
    }
    return out;
}

Fingerprint fingerprint_from_json(const json& j, const std::string& source) {
    return read_fingerprint(Reader(source), j);
}

std::vector<FunctionResult> functions_from_json(const json& array, const std::string& source) {
    const Reader r(source);
    try {
        return read_functions(r, json{{"functions", array}}, "result");
    } catch (const json::exception& e) {
        r.fail(util::printable(e.what()));
    }
}

json read_json_file(const std::filesystem::path& path) {
    std::optional<util::FileBytes> bytes;
    try {
        bytes.emplace(path);
    } catch (const EnvironmentError& e) {
        throw UsageError(util::printable(e.what()), "check the path");
    }
    return parse_json_text(bytes->view(), path.string());
}

json parse_json_text(std::string_view text, const std::string& source) {
    // The keys of each object open at the current depth: a key given twice is an error, not
    // "the last one wins" (which would let a file show one count and be judged by another).
    std::vector<std::set<std::string>> keys;
    const json::parser_callback_t refuse_duplicates = [&](int, json::parse_event_t event,
                                                          json& parsed) {
        if (event == json::parse_event_t::object_start) {
            keys.emplace_back();
        } else if (event == json::parse_event_t::object_end) {
            keys.pop_back();
        } else if (event == json::parse_event_t::key && !keys.empty() &&
                   !keys.back().insert(parsed.get<std::string>()).second) {
            throw UsageError(fmt::format("{}: not valid JSON (the key \"{}\" appears twice in "
                                         "one object)",
                                         source, util::printable(parsed.get<std::string>())),
                             "pass a file written by `cgbench run --out`");
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), refuse_duplicates);
    } catch (const json::exception& e) {  // a syntax error, or a number beyond a double
        throw UsageError(fmt::format("{}: not valid JSON ({})", source, util::printable(e.what())),
                         "pass a file written by `cgbench run --out`");
    }
}

bool is_result_document(const json& doc) {
    if (!doc.is_object()) return false;
    const auto it = doc.find("schema");
    return it != doc.end() && it->is_string() &&
           util::starts_with(it->get_ref<const std::string&>(), "cgbench-result/");
}

RunResult load_result_file(const std::filesystem::path& path) {
    auto run = run_from_json(read_json_file(path), path.string());
    check_result_values(run, path.string());
    return run;
}

std::string as_json_text(const std::string& text) {
    const bool ascii = std::all_of(text.begin(), text.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) return text;
    return json::parse(dump_json(ojson(text), -1)).get<std::string>();
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace cgbench
