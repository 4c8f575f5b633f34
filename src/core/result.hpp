#pragma once
// The result model: what one `cgbench run` produced. Reporters render it, the result file
// serialises it (core/result_json), the history database stores it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/events.hpp"
#include "metrics/metric.hpp"
#include "metrics/profile.hpp"
#include "metrics/score.hpp"
#include "valgrind/cpu_baseline.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench {

enum class BenchStatus { Ok, Failed, Timeout };
std::string_view to_string(BenchStatus s);
std::optional<BenchStatus> bench_status_from(std::string_view s);

// How one event varied across repeated runs of a benchmark (--verify).
struct EventSpread {
    metrics::Event event;
    std::uint64_t min = 0;
    std::uint64_t max = 0;
};

// One function's self cost within a result (from the per-function lines of the raw
// Cachegrind/Callgrind file), for explaining a change.
struct FunctionResult {
    std::string file;             // source file as Valgrind names it ("???" when unknown)
    std::string name;             // function; "(other)" for the sum of the functions not listed
    metrics::EventCounts events;  // the events the cost needs (Ir, and the cache events)
    std::uint64_t cost = 0;       // under the result's weights
    friend bool operator==(const FunctionResult&, const FunctionResult&) = default;
};

// The name of the entry that sums every function not listed.
inline constexpr std::string_view kOtherFunctions = metrics::kOtherFunctions;

// `functions` (highest cost first, as a result lists them) folded to its first `keep` entries
// and one "(other)" summing the rest and any "(other)" already there, each entry keeping
// only its cost and Ir: what the history stores, enough to say which functions moved. The
// costs still add up to the same total.
std::vector<FunctionResult> fold_functions(const std::vector<FunctionResult>& functions,
                                           std::size_t keep);

struct RunResult;

// One source line's self cost within a result (Cachegrind's per-line counts, with debug
// info), for showing where in a function a change happened.
struct LineResult {
    std::string file;             // source file as Valgrind names it
    std::string function;         // the function the line's code belongs to (inlined: the caller)
    std::uint32_t line = 0;       // 1-based
    std::string text;             // the line's source, trimmed and bounded; empty: not readable
    metrics::EventCounts events;  // the events the cost needs
    std::uint64_t cost = 0;       // under the result's weights
    friend bool operator==(const LineResult&, const LineResult&) = default;
};

// The names of the results of `run` measured without line information (line_info false).
std::vector<std::string> without_line_info(const RunResult& run);

// What every report says, once, when the results `names` had no line information: that
// files show as ??? and no lines are kept, and the compiler flag that fixes it. Empty when
// `names` is.
std::string no_line_info_hint(const std::vector<std::string>& names);

// The region of a program a result measures (`cgbench run --regions`).
struct RegionInfo {
    std::string name;           // as marked in the program (the result is named BENCH/NAME)
    std::uint64_t entries = 0;  // times it was entered; their costs are summed
};

// The Google Benchmark benchmark a result measures (`cgbench run --gbench`): events and cost
// are per iteration of its measured loop, in the last of its repetitions.
struct GbenchInfo {
    std::string benchmark;          // its name in the binary ("BM_x/64")
    std::uint64_t iterations = 0;   // iterations of the measured repetition (divided by)
    std::uint64_t repetitions = 0;  // repetitions run; the last one is reported
    friend bool operator==(const GbenchInfo&, const GbenchInfo&) = default;
};

// One process of a whole-program run (`cgbench run` follows every child and exec). Listed in
// a result only when more than one process ran; keyed by `command` (and its rank among
// processes of the same command), never by pid, so two runs compare process by process.
struct ProcessResult {
    std::string command;  // as Valgrind names it; the staged program path shown as given
    std::optional<std::size_t> parent;  // index of its parent in the list; none: the started one
    // A copy of its parent that did not exec: Valgrind copies the parent's counts into the
    // child at fork, so its events include the parent's up to the fork.
    bool forked = false;
    bool counted = true;           // part of the result's events (--processes)
    bool profiled = true;          // false: it left no profile (killed before it exited)
    std::optional<int> exit_code;  // known for the started process only
    std::optional<int> signal;     // the signal that ended it
    metrics::EventCounts events;   // empty when not profiled
    std::uint64_t cost = 0;        // under the result's weights
    friend bool operator==(const ProcessResult&, const ProcessResult&) = default;
};

// Which processes a whole-program result counts.
enum class ProcessMode {
    Tree,  // every process the program started, forked or exec'd (default)
    Main,  // the started process and the programs it exec'd into
};
std::string_view to_string(ProcessMode m);
std::optional<ProcessMode> process_mode_from(std::string_view s);

struct BenchmarkResult {
    std::string name;
    std::string tool = "cachegrind";   // "callgrind" for region results; never compared across
    std::vector<std::string> command;  // as the user gave it
    BenchStatus status = BenchStatus::Ok;
    std::optional<int> exit_code;  // absent when killed by a signal or timed out
    std::optional<int> signal;
    metrics::EventCounts events;              // empty unless status is Ok
    std::optional<metrics::Derived> derived;  // absent without cache simulation
    metrics::Weights weights;
    std::uint64_t cost = 0;
    double wall_seconds = 0;
    std::string error;        // why it failed (empty when Ok)
    std::string stderr_tail;  // last lines of the program's stderr on failure
    std::vector<std::string> warnings;
    // The most threads one measured process ran (its main thread included); 0: not known (a
    // result from before it was recorded). Above 1 the counts are not repeatable: Valgrind's
    // schedule of the threads differs from run to run. JSON "threads", written when above 1.
    int threads = 0;
    std::string raw_file;                 // where --keep-raw put the Valgrind output
    int runs = 1;                         // times measured (--verify N)
    std::vector<EventSpread> spread;      // events that differed between runs; empty: identical
    std::string threshold;                // the suite's threshold text for `compare`; empty: unset
    std::optional<std::size_t> position;  // 0-based [[bench]] index in its suite; merges sort by it
    std::optional<RegionInfo> region;     // set for the results of a region run
    std::optional<GbenchInfo> gbench;     // set for the results of a Google Benchmark binary
    ProcessMode process_mode = ProcessMode::Tree;
    // Every process of the run, ordered by start (the started one first, then depth first);
    // empty when only one ran.
    std::vector<ProcessResult> processes;
    // The costliest functions, highest first, then "(other)"; their costs add up to `cost`.
    // Empty for failed results and for result files written before they were recorded.
    std::vector<FunctionResult> functions;
    // The costliest source lines, highest first (not a complete list: their costs add up to
    // at most `cost`). Empty without debug info, for Callgrind results and for older files.
    std::vector<LineResult> lines;
    // Whether the measured program had line information: false when it is ELF without a
    // .debug_line section (built without -g, or stripped) or Cachegrind placed no cost on any
    // source line; nullopt when not known (Callgrind, older files).
    std::optional<bool> line_info;
};

// The value of `metric` in `b`; nullopt when `b` failed or did not measure it.
std::optional<std::uint64_t> metric_value(const BenchmarkResult& b, metrics::Metric metric);

struct GitInfo {
    std::optional<std::string> commit;
    std::optional<std::string> branch;
    std::optional<bool> dirty;
    // What git said about the commit when the run was recorded, so history orders and labels
    // it without git (absent in runs recorded before cgbench read them, or without a commit).
    std::optional<std::string> commit_time;  // committer date, ISO-8601 with offset (%cI)
    std::optional<std::string> author_time;  // author date (%aI)
    std::vector<std::string> parents;        // full ids, the first parent first
    std::optional<std::string> subject;
    // Commits on the commit's first-parent line, itself included (`git rev-list --first-parent
    // --count`): its place on that line. Absent in a shallow clone, where the line is cut.
    std::optional<std::uint64_t> first_parent_depth;
    std::optional<bool> shallow;  // read in a shallow clone: ancestry beyond it unknown
};

// What git says about a commit, for people reading history (never stored).
struct CommitInfo {
    std::string subject;
    std::string author;
    std::string date;  // committer date, ISO-8601
};

// Everything that decides whether two results can be compared. Fields that change the
// numbers go into comparison_key(); the rest is for the record.
struct Fingerprint {
    std::string cgbench_version;
    std::string tool = "cachegrind";
    std::string valgrind_version;
    std::string valgrind_launcher;  // the binary executed
    bool valgrind_wrapper_bypassed = false;
    std::string glibc_version;
    std::string arch;
    valgrind::Geometry geometry;
    bool cache_sim = true;
    bool branch_sim = false;
    metrics::Weights weights;
    std::string cpu_baseline;  // "portable" | "native"
    std::string glibc_tunables;
    valgrind::GlibcSelection selection;
    std::string aslr;  // "disabled" or why it could not be
    std::size_t env_block_bytes = 0;
    // Hash of the dynamic loader's cache (/etc/ld.so.cache) the run saw, "" when unreadable.
    // Not part of the key: installing packages changes it, and with it start-up counts by up
    // to a few hundred instructions; compare warns when BASE and HEAD saw different caches.
    std::string loader_cache;
    // What built the measured programs: the distinct strings of their ELF `.comment`
    // sections ("GCC: (Debian 12.2.0-14) 12.2.0"), sorted; empty when none has one. Not part
    // of the key (a pull request may change the compiler on purpose); history names a change
    // as an environment change rather than a code one.
    std::vector<std::string> compilers;
    std::vector<std::string> valgrind_options;  // tool options other than geometry/output
    // Loader and glibc variables a benchmark set with --env (LD_PRELOAD=..., GLIBC_TUNABLES=
    // ...), sorted: they change what runs, so they are part of the key.
    std::vector<std::string> loader_env;
    // How the program was isolated from the machine (exec/sandbox.hpp): "namespaces (uid 0,
    // pid 2, /cgbench)", or "none (staged under DIR)" where namespaces were refused. Part of
    // the key: the working directory, the user, the pid and the staging path reach the
    // program only without namespaces. Empty in results of cgbench before the sandbox.
    std::string isolation;
    // What --fixed-clock and --fixed-random changed ("clock", "random", "clock, random"; empty:
    // nothing). Part of the key when set: the program saw another clock or entropy.
    std::string fixed_inputs;

    // Hash of the fields that change counts or cost; equal keys mean comparable results.
    std::string comparison_key() const;
    // Human-readable list of the comparison fields that differ ("geometry: A vs B").
    std::vector<std::string> differences(const Fingerprint& other) const;
};

struct RunResult {
    std::string id;
    std::string started;  // ISO-8601 UTC
    GitInfo git;
    Fingerprint fingerprint;
    std::vector<BenchmarkResult> benchmarks;
    std::vector<std::string> warnings;  // run-wide (e.g. ASLR refused)
    std::string shard;                  // "K/N" when this run measured one shard of a suite
    // How the shards were balanced: "history run ID" (previous costs) or "names". Every shard
    // of one split must say the same, or the shards may overlap or miss benchmarks.
    std::string shard_balance;
    // For a shard: a hash of the names of every benchmark the split divides, so that shards
    // of different suites (or filters) are never merged as one run. Empty: not known (a
    // shard written by an older cgbench, or read back from the history).
    std::string shard_suite;
    // The command that measured another commit in a worktree and recorded it: "bisect" (a
    // probe, on no line of the history) or "backfill" (on its branch's line); empty for `run`.
    std::string recorded_by;
};

// RunResult::recorded_by of the runs `cgbench bisect` records.
inline constexpr std::string_view kRecordedByBisect = "bisect";
// RunResult::recorded_by of the runs `cgbench backfill` records.
inline constexpr std::string_view kRecordedByBackfill = "backfill";

}  // namespace cgbench
