#pragma once
// The parsed content of a Cachegrind (or Callgrind) output file: what the parsers produce and
// everything downstream consumes. Parsers never print; they fill this model or throw.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "metrics/events.hpp"

namespace cgbench::valgrind {

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
    // The functions ParseOptions::watch accepted, in order of first appearance.
    std::vector<FunctionCost> watched;
    // Callgrind with ParseOptions::collect_calls: caller/callee pairs, in order of first
    // appearance (not summed by ProfileSum).
    std::vector<CallCost> calls;
    // The costliest source lines, filled only when requested (ParseOptions::collect_lines),
    // highest rank first.
    std::vector<LineCost> lines;
    // Whether lines were collected (Cachegrind with ParseOptions::collect_lines): then no
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

}  // namespace cgbench::valgrind
