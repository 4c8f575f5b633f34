#pragma once
// cgbench's profile model: what one run of a program cost, by the events of the one event
// table (events.hpp): totals, and per function, per call and per source line when asked
// (ProfileRequest). A backend's parsers fill it (valgrind/: Cachegrind's and Callgrind's
// files, whose names for these types are aliases of these); the measurement strategies
// (runner/measurement.hpp) get it from their Launcher, and scoring, the top functions and
// lines, regions and call trees are computed from it. Parsers never print; they fill this
// model or throw.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "metrics/events.hpp"

namespace cgbench::metrics {

// The name of the entry that sums the functions a profile or result does not list one by one.
inline constexpr std::string_view kOtherFunctions = "(other)";

// Self costs of one function (file-qualified), for the events cgbench knows (columns of
// unknown events are not kept per function).
struct FunctionCost {
    std::string file;
    std::string name;
    metrics::EventCounts counts;
};

// Callgrind: the calls from one function to another, summed over every call site: the
// callee's inclusive cost while called from `caller` (cost lines after `calls=`).
// Functions are named by file and name, as in Profile::functions: two functions of one name
// ("(below main)", static functions) are not one.
struct CallCost {
    std::string caller_file;
    std::string caller;
    std::string callee_file;
    std::string callee;
    metrics::EventCounts counts;
};

// Self costs of one source line within one function (Cachegrind's count lines under `fl=` and
// `fn=`): `line` is 1-based; lines Valgrind could not place (line 0, no debug info) are not
// kept.
struct LineCost {
    std::string file;
    std::string function;
    std::uint32_t line = 0;
    metrics::EventCounts counts;
};

// What a reader collects besides the totals, and how much of it.
struct ProfileRequest {
    bool collect_functions = false;  // fill Profile::functions (self cost per function)
    // With collect_functions and a limit: keep only the `function_limit` functions that rank
    // highest under `function_rank` (ties by file and name) and sum the others into one
    // kOtherFunctions entry. Names are copied out of the file only for the functions kept,
    // which is most of the cost of collecting functions in a large profile. 0: keep all.
    std::size_t function_limit = 0;
    std::function<std::uint64_t(const EventCounts&)> function_rank = {};
    // Cachegrind: how many lines its `cmd:` header spans. Valgrind 3.19 writes the command
    // line unescaped, so an argument holding newlines continues it on the next lines (which
    // may look like anything, even "events: ..."): 1 + the newlines in the program's argv.
    // 0: unknown; the command then spans every line up to the last `events:` line (nothing
    // after the real one starts so). Set by the launcher that ran the program, not by a
    // strategy.
    std::size_t cmd_lines = 0;
    // With collect_functions: every function whose name this accepts is also copied to
    // Profile::watched, whatever its rank (the functions runner/repeatability.hpp reads).
    std::function<bool(std::string_view)> watch = {};
    // Callgrind: fill Profile::calls (the call graph, by function name).
    bool collect_calls = false;
    // With collect_functions (Cachegrind only): also fill Profile::lines with the
    // `line_limit` source lines that rank highest under `function_rank` (ties by file,
    // function and line; 0: every line). The rest of a line's cost stays its function's.
    bool collect_lines = false;
    std::size_t line_limit = 0;
};

struct Profile {
    std::string tool;               // "cachegrind" or "callgrind"
    std::vector<std::string> desc;  // `desc:` lines (cache geometry as Valgrind saw it)
    std::string cmd;                // `cmd:` line
    std::size_t part = 0;           // Callgrind: `part:`, the dump's number (1, 2, ...)
    std::string trigger;            // Callgrind: why the dump was written (`desc: Trigger:`)
    // The `events:` columns in file order; nullopt for an event cgbench does not know (kept
    // so later columns still line up).
    std::vector<std::optional<metrics::Event>> columns;
    std::vector<std::string> column_names;
    // The file's `summary:` (Cachegrind) or `totals:` (Callgrind), checked against the sum of
    // its self-cost lines.
    metrics::EventCounts totals;
    std::vector<FunctionCost> functions;  // filled only when requested
    // The functions ProfileRequest::watch accepted, in order of first appearance.
    std::vector<FunctionCost> watched;
    // Callgrind with ProfileRequest::collect_calls: caller/callee pairs, in order of first
    // appearance (not summed by ProfileSum).
    std::vector<CallCost> calls;
    // The costliest source lines, filled only when requested (ProfileRequest::collect_lines),
    // highest rank first.
    std::vector<LineCost> lines;
    // Whether lines were collected (Cachegrind with ProfileRequest::collect_lines): then no
    // lines means no line information in the measured code.
    bool has_lines = false;

    // The column of `e`, or nullopt when the file did not record it.
    std::optional<std::size_t> column_of(metrics::Event e) const;
};

// Sums profiles into one: their totals, their functions by file and name and their lines by
// file, function and line (in order of first appearance). The one accumulator for the processes of
// a run, the dump parts of a region and the timed parts of a Google Benchmark loop.
class ProfileSum {
  public:
    // Adds `part`. The first part sets the sum's tool and columns; a later part that
    // records other events throws UsageError (the files are not from one run).
    void add(const Profile& part);
    void add(Profile&& part);

    // The sum so far (empty columns when nothing was added).
    const Profile& profile() const { return sum_; }
    // The sum, moved out; the accumulator is empty afterwards.
    Profile take();

  private:
    template <typename P>
    void add_part(P&& part);

    Profile sum_;
    std::map<std::pair<std::string, std::string>, std::size_t> index_;
    std::map<std::tuple<std::string, std::string, std::uint32_t>, std::size_t> line_index_;
};

}  // namespace cgbench::metrics
