#include "core/result_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "base/errors.hpp"
#include "util/json_cursor.hpp"

namespace cgbench {

namespace {

// The top-level keys of a benchmark document (core/result_json.cpp, to_json).
constexpr std::array<std::string_view, 23> kKeys = {
    "name",        "command",  "status",   "tool",   "exit_code",    "signal",
    "events",      "derived",  "weights",  "cost",   "wall_seconds", "error",
    "stderr_tail", "warnings", "raw_file", "verify", "threshold",    "position",
    "functions",   "region",   "threads",  "lines",  "line_info"};
enum Key : int {
    kName,
    kCommand,
    kStatus,
    kTool,
    kExitCode,
    kSignal,
    kEvents,
    kDerived,
    kWeights,
    kCost,
    kWall,
    kError,
    kStderr,
    kWarnings,
    kRawFile,
    kVerify,
    kThreshold,
    kPosition,
    kFunctions,
    kRegion,
    kThreads,
    kLines,
    kLineInfo,
    kUnknown
};
// What read_benchmark requires.
constexpr std::uint32_t kRequired = 1u << kName | 1u << kCommand | 1u << kStatus | 1u << kEvents |
                                    1u << kWeights | 1u << kCost | 1u << kWall;

Key key_of(std::string_view k) {
    for (std::size_t i = 0; i < kKeys.size(); ++i) {
        if (kKeys[i] == k) return static_cast<Key>(i);
    }
    return kUnknown;
}

// Reads one benchmark document the way read_benchmark (core/result_json.cpp) does.
class StreamReader {
  public:
    explicit StreamReader(std::string_view text) : c_(text) {}

    // A "functions" array alone.
    bool read(std::vector<FunctionResult>& out) { return functions(out) && c_.at_end(); }

    bool read(BenchmarkResult& b) {
        if (!c_.eat('{')) return false;
        if (c_.eat('}')) return false;  // lacks the required keys
        do {
            if (!c_.key(key_) || !c_.eat(':')) return false;
            const Key k = key_of(key_);
            if (k == kUnknown || (seen_ & (1u << k)) != 0) return false;
            seen_ |= 1u << k;
            if (!top_value(k, b)) return false;
        } while (c_.eat(','));
        return c_.eat('}') && c_.at_end() && (seen_ & kRequired) == kRequired;
    }

  private:
    bool top_value(Key k, BenchmarkResult& b);
    bool text(std::string& out) { return c_.string(out); }
    bool status(BenchStatus& out);
    bool seconds(double& out);
    bool unsigned_value(std::uint64_t& out);
    bool optional_int(std::optional<int>& out);
    bool strings(std::vector<std::string>& out);
    bool events(metrics::EventCounts& out);
    bool skip_derived();
    bool weights(metrics::Weights& out);
    bool verify(BenchmarkResult& b);
    bool position(std::optional<std::size_t>& out);
    bool threads(int& out);
    bool functions(std::vector<FunctionResult>& out);
    // A JSON array of what `item` reads.
    template <typename T>
    bool list(std::vector<T>& out, bool (StreamReader::*item)(T&)) {
        if (!c_.eat('[')) return false;
        if (c_.eat(']')) return true;
        do {
            if (!(this->*item)(out.emplace_back())) return false;
        } while (c_.eat(','));
        return c_.eat(']');
    }
    bool function(FunctionResult& out);
    bool region(std::optional<RegionInfo>& out);
    bool line(LineResult& out);
    bool line_info(std::optional<bool>& out);
    bool spread(std::vector<EventSpread>& out);

    util::JsonCursor c_;
    std::string_view key_;  // the last key read, a view into the document
    std::uint32_t seen_ = 0;
};

bool StreamReader::top_value(Key k, BenchmarkResult& b) {
    switch (k) {
        case kName:
            return text(b.name);
        case kCommand:
            return strings(b.command);
        case kStatus:
            return status(b.status);
        case kTool:
            return text(b.tool);
        case kExitCode:
            return optional_int(b.exit_code);
        case kSignal:
            return optional_int(b.signal);
        case kEvents:
            return events(b.events);
        case kDerived:
            return skip_derived();
        case kWeights:
            return weights(b.weights);
        case kCost:
            return unsigned_value(b.cost);
        case kWall:
            return seconds(b.wall_seconds);
        case kError:
            return text(b.error);
        case kStderr:
            return text(b.stderr_tail);
        case kWarnings:
            return strings(b.warnings);
        case kRawFile:
            return text(b.raw_file);
        case kVerify:
            return verify(b);
        case kThreshold:
            return text(b.threshold);
        case kPosition:
            return position(b.position);
        case kFunctions:
            return functions(b.functions);
        case kRegion:
            return region(b.region);
        case kThreads:
            return threads(b.threads);
        case kLines:
            return list(b.lines, &StreamReader::line);
        case kLineInfo:
            return line_info(b.line_info);
        case kUnknown:
            return false;
    }
    return false;
}

bool StreamReader::status(BenchStatus& out) {
    std::string s;
    if (!text(s)) return false;
    const auto status = bench_status_from(s);
    if (status) out = *status;
    return status.has_value();
}

// Any JSON number, as read_benchmark's get<double>() reads it.
bool StreamReader::seconds(double& out) {
    util::JsonNumber n;
    if (!c_.number(n)) return false;
    out = n.whole      ? static_cast<double>(*n.whole)
          : n.negative ? static_cast<double>(*n.negative)
                       : *n.real;
    return std::isfinite(out);  // 1e999: the DOM reader names it
}

bool StreamReader::unsigned_value(std::uint64_t& out) {
    util::JsonNumber n;
    if (!c_.number(n) || !n.whole) return false;
    out = *n.whole;
    return true;
}

// exit_code and signal: an integer, or null (absent).
bool StreamReader::optional_int(std::optional<int>& out) {
    if (c_.peek() == 'n') return c_.literal("null");
    util::JsonNumber n;
    if (!c_.number(n) || n.real) return false;
    out = n.whole ? static_cast<int>(*n.whole) : static_cast<int>(*n.negative);
    return true;
}

bool StreamReader::strings(std::vector<std::string>& out) {
    if (!c_.eat('[')) return false;
    if (c_.eat(']')) return true;
    do {
        if (!text(out.emplace_back())) return false;
    } while (c_.eat(','));
    return c_.eat(']');
}

bool StreamReader::events(metrics::EventCounts& out) {
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        std::uint64_t v = 0;
        if (!c_.key(key_) || !c_.eat(':') || !unsigned_value(v)) return false;
        const auto e = metrics::event_from_name(key_);
        if (!e || out.has(*e)) return false;  // a key twice: the DOM reader names it
        out.set(*e, v);
    } while (c_.eat(','));
    return c_.eat('}');
}

// read_benchmark recomputes the derived hits from the events.
bool StreamReader::skip_derived() {
    if (c_.peek() == 'n') return c_.literal("null");
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        std::uint64_t ignored = 0;
        if (!c_.key(key_) || !c_.eat(':') || !unsigned_value(ignored)) return false;
    } while (c_.eat(','));
    return c_.eat('}');
}

bool StreamReader::weights(metrics::Weights& out) {
    out = metrics::Weights{"custom", 0, 0, 0, false};
    unsigned seen = 0;
    if (!c_.eat('{') || c_.eat('}')) return false;
    do {
        if (!c_.key(key_) || !c_.eat(':')) return false;
        if (key_ == "preset") {
            if (!text(out.name)) return false;
        } else if (key_ == "instructions_only") {
            out.instructions_only = c_.peek() == 't';
            if (!c_.literal(out.instructions_only ? "true" : "false")) return false;
        } else {
            const unsigned bit = key_ == "l1"           ? 1
                                 : key_ == "ll"         ? 2
                                 : key_ == "ram"        ? 4
                                 : key_ == "mispredict" ? 8
                                                        : 0;
            if (bit == 0 || (seen & bit) != 0) return false;
            seen |= bit;
            std::uint64_t* slot = bit == 1   ? &out.l1
                                  : bit == 2 ? &out.ll
                                  : bit == 4 ? &out.ram
                                             : &out.mispredict;
            if (!unsigned_value(*slot)) return false;
        }
    } while (c_.eat(','));
    return c_.eat('}') && (seen & 7) == 7;
}

bool StreamReader::verify(BenchmarkResult& b) {
    if (!c_.eat('{') || c_.eat('}')) return false;
    do {
        if (!c_.key(key_) || !c_.eat(':')) return false;
        if (key_ == "runs") {
            std::uint64_t runs = 0;
            if (!unsigned_value(runs)) return false;
            b.runs = static_cast<int>(runs);
        } else if (key_ == "identical") {
            if (!c_.literal(c_.peek() == 't' ? "true" : "false")) return false;
        } else if (key_ != "spread" || !spread(b.spread)) {
            return false;
        }
    } while (c_.eat(','));
    return c_.eat('}');
}

bool StreamReader::position(std::optional<std::size_t>& out) {
    std::uint64_t v = 0;
    if (!unsigned_value(v)) return false;
    out = static_cast<std::size_t>(v);
    return true;
}

bool StreamReader::threads(int& out) {
    std::uint64_t v = 0;
    if (!unsigned_value(v) || v > 1000000) return false;
    out = static_cast<int>(v);
    return true;
}

bool StreamReader::functions(std::vector<FunctionResult>& out) {
    return list(out, &StreamReader::function);
}

// {"file": ..., "name": ..., "events": {...}, "cost": N}, each key once, in any order (the
// order to_json writes, or PostgreSQL's jsonb's).
bool StreamReader::function(FunctionResult& out) {
    if (!c_.eat('{')) return false;
    unsigned seen = 0;
    do {
        if (!c_.key(key_) || !c_.eat(':')) return false;
        unsigned bit = 0;
        bool ok = false;
        if (key_ == "file") {
            bit = 1, ok = text(out.file);
        } else if (key_ == "name") {
            bit = 2, ok = text(out.name);
        } else if (key_ == "events") {
            bit = 4, ok = events(out.events);
        } else if (key_ == "cost") {
            bit = 8, ok = unsigned_value(out.cost);
        }
        if (!ok || (seen & bit) != 0) return false;
        seen |= bit;
    } while (c_.eat(','));
    return seen == 15 && c_.eat('}');
}

// {"file", "function", "line", "text" (when read), "events", "cost"}, the order to_json writes.
bool StreamReader::line(LineResult& out) {
    const auto key = [&](std::string_view want) {
        return c_.key(key_) && key_ == want && c_.eat(':');
    };
    std::uint64_t number = 0;
    if (!(c_.eat('{') && key("file") && text(out.file) && c_.eat(',') && key("function") &&
          text(out.function) && c_.eat(',') && key("line") && unsigned_value(number) &&
          number > 0 && number <= UINT32_MAX && c_.eat(',') && c_.key(key_) && c_.eat(':'))) {
        return false;
    }
    out.line = static_cast<std::uint32_t>(number);
    if (key_ == "text") {
        if (!text(out.text) || !c_.eat(',') || !c_.key(key_) || !c_.eat(':')) return false;
    }
    return key_ == "events" && events(out.events) && c_.eat(',') && key("cost") &&
           unsigned_value(out.cost) && c_.eat('}');
}

bool StreamReader::line_info(std::optional<bool>& out) {
    const bool value = c_.peek() == 't';
    if (!c_.literal(value ? "true" : "false")) return false;
    out = value;
    return true;
}

// {"name": ..., "entries": N}, the order to_json writes.
bool StreamReader::region(std::optional<RegionInfo>& out) {
    RegionInfo r;
    const auto key = [&](std::string_view want) {
        return c_.key(key_) && key_ == want && c_.eat(':');
    };
    if (!(c_.eat('{') && key("name") && text(r.name) && c_.eat(',') && key("entries") &&
          unsigned_value(r.entries) && c_.eat('}'))) {
        return false;
    }
    out = std::move(r);
    return true;
}

bool StreamReader::spread(std::vector<EventSpread>& out) {
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        if (!c_.key(key_) || !c_.eat(':') || !c_.eat('{')) return false;
        const auto e = metrics::event_from_name(key_);
        std::uint64_t min = 0;
        std::uint64_t max = 0;
        if (!e || !c_.key(key_) || key_ != "min" || !c_.eat(':') || !unsigned_value(min) ||
            !c_.eat(',') || !c_.key(key_) || key_ != "max" || !c_.eat(':') ||
            !unsigned_value(max) || !c_.eat('}')) {
            return false;
        }
        out.push_back({*e, min, max});
    } while (c_.eat(','));
    // The DOM reader walks a std::map: spreads come out in the order of their names.
    std::sort(out.begin(), out.end(), [](const EventSpread& a, const EventSpread& b) {
        return metrics::info(a.event).name < metrics::info(b.event).name;
    });
    return c_.eat('}');
}

}  // namespace

std::optional<BenchmarkResult> read_known_benchmark(std::string_view text) {
    BenchmarkResult b;
    StreamReader reader(text);
    if (!reader.read(b)) return std::nullopt;
    try {
        b.derived = metrics::derive(b.events);
    } catch (const UsageError&) {
        return std::nullopt;  // the DOM reader reports it with the file and the reason
    }
    return b;
}

std::optional<std::vector<FunctionResult>> read_known_functions(std::string_view text) {
    std::vector<FunctionResult> out;
    StreamReader reader(text);
    if (!reader.read(out)) return std::nullopt;
    return out;
}

}  // namespace cgbench
