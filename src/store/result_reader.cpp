#include "store/result_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <string>

#include "core/errors.hpp"

namespace cgbench::store {

namespace {

// The top-level keys of a benchmark document (core/result_json.cpp, to_json).
constexpr std::array<std::string_view, 16> kKeys = {
    "name",    "command", "status",       "tool",  "exit_code",   "signal",   "events",   "derived",
    "weights", "cost",    "wall_seconds", "error", "stderr_tail", "warnings", "raw_file", "verify"};
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

// A strict reader for the documents cgbench writes: objects, arrays, strings (with the
// escapes nlohmann emits; \u only outside the surrogate range), numbers, literals. Every
// function returns false to decline: the caller then falls back to the DOM reader.
class Cursor {
  public:
    explicit Cursor(std::string_view text) : s_(text) {}

    void ws() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
            ++i_;
        }
    }
    bool eat(char c) {
        ws();
        if (i_ >= s_.size() || s_[i_] != c) return false;
        ++i_;
        return true;
    }
    char peek() {
        ws();
        return i_ < s_.size() ? s_[i_] : '\0';
    }
    bool at_end() {
        ws();
        return i_ == s_.size();
    }
    bool string(std::string& out);
    // A number: exactly one of the outputs is set (unsigned, negative integer, or other).
    bool number(std::optional<std::uint64_t>& u, std::optional<std::int64_t>& i,
                std::optional<double>& d);
    bool literal(std::string_view word) {
        ws();
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }

  private:
    bool escape(std::string& out);

    std::string_view s_;
    std::size_t i_ = 0;
};

bool Cursor::string(std::string& out) {
    if (!eat('"')) return false;
    out.clear();
    for (;;) {
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\\' &&
               static_cast<unsigned char>(s_[i_]) >= 0x20) {
            ++i_;
        }
        out.append(s_.substr(start, i_ - start));
        if (i_ >= s_.size() || static_cast<unsigned char>(s_[i_]) < 0x20) return false;
        if (s_[i_++] == '"') return true;
        if (!escape(out)) return false;
    }
}

bool Cursor::escape(std::string& out) {
    if (i_ >= s_.size()) return false;
    const char c = s_[i_++];
    switch (c) {
        case '"':
        case '\\':
        case '/':
            out += c;
            return true;
        case 'b':
            out += '\b';
            return true;
        case 'f':
            out += '\f';
            return true;
        case 'n':
            out += '\n';
            return true;
        case 'r':
            out += '\r';
            return true;
        case 't':
            out += '\t';
            return true;
        case 'u':
            break;
        default:
            return false;
    }
    unsigned cp = 0;
    if (i_ + 4 > s_.size()) return false;
    const auto [p, ec] = std::from_chars(s_.data() + i_, s_.data() + i_ + 4, cp, 16);
    if (ec != std::errc{} || p != s_.data() + i_ + 4 || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return false;
    }
    i_ += 4;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
}

bool Cursor::number(std::optional<std::uint64_t>& u, std::optional<std::int64_t>& i,
                    std::optional<double>& d) {
    ws();
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    bool fraction = false;
    while (i_ < s_.size()) {
        const char c = s_[i_];
        if (c == '.' || c == 'e' || c == 'E' || c == '+' || (c == '-' && i_ > start)) {
            fraction = true;
        } else if (c < '0' || c > '9') {
            break;
        }
        ++i_;
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + i_;
    const char* digits = first + (*first == '-' ? 1 : 0);
    // JSON forbids leading zeros ("01"); nlohmann rejects them, so decline.
    if (digits == last ||
        (*digits == '0' && digits + 1 < last && digits[1] >= '0' && digits[1] <= '9')) {
        return false;
    }
    std::from_chars_result r{};
    if (fraction) {
        r = std::from_chars(first, last, d.emplace());
    } else if (*first == '-') {
        r = std::from_chars(first, last, i.emplace());
    } else {
        r = std::from_chars(first, last, u.emplace());
    }
    return r.ec == std::errc{} && r.ptr == last;  // overflow: let the DOM reader decide
}

// Reads one benchmark document the way read_benchmark (core/result_json.cpp) does.
class Reader {
  public:
    explicit Reader(std::string_view text) : c_(text) {}

    bool read(BenchmarkResult& b) {
        if (!c_.eat('{')) return false;
        if (c_.eat('}')) return false;  // lacks the required keys
        do {
            if (!c_.string(key_) || !c_.eat(':')) return false;
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
    bool unsigned_value(std::uint64_t& out);
    bool optional_int(std::optional<int>& out);
    bool strings(std::vector<std::string>& out);
    bool events(metrics::EventCounts& out);
    bool skip_derived();
    bool weights(metrics::Weights& out);
    bool verify(BenchmarkResult& b);
    bool spread(std::vector<EventSpread>& out);

    Cursor c_;
    std::string key_;
    std::uint32_t seen_ = 0;
};

bool Reader::top_value(Key k, BenchmarkResult& b) {
    switch (k) {
        case kName:
            return text(b.name);
        case kCommand:
            return strings(b.command);
        case kStatus: {
            std::string s;
            if (!text(s)) return false;
            const auto status = bench_status_from(s);
            if (status) b.status = *status;
            return status.has_value();
        }
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
        case kWall: {
            std::optional<std::uint64_t> u;
            std::optional<std::int64_t> i;
            std::optional<double> d;
            if (!c_.number(u, i, d)) return false;
            b.wall_seconds = u ? static_cast<double>(*u) : i ? static_cast<double>(*i) : *d;
            return true;
        }
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
        case kUnknown:
            return false;
    }
    return false;
}

bool Reader::unsigned_value(std::uint64_t& out) {
    std::optional<std::uint64_t> u;
    std::optional<std::int64_t> i;
    std::optional<double> d;
    if (!c_.number(u, i, d) || !u) return false;
    out = *u;
    return true;
}

// exit_code and signal: an integer, or null (absent).
bool Reader::optional_int(std::optional<int>& out) {
    if (c_.peek() == 'n') return c_.literal("null");
    std::optional<std::uint64_t> u;
    std::optional<std::int64_t> i;
    std::optional<double> d;
    if (!c_.number(u, i, d) || d) return false;
    out = u ? static_cast<int>(*u) : static_cast<int>(*i);
    return true;
}

bool Reader::strings(std::vector<std::string>& out) {
    if (!c_.eat('[')) return false;
    if (c_.eat(']')) return true;
    do {
        if (!text(out.emplace_back())) return false;
    } while (c_.eat(','));
    return c_.eat(']');
}

bool Reader::events(metrics::EventCounts& out) {
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        std::uint64_t v = 0;
        if (!c_.string(key_) || !c_.eat(':') || !unsigned_value(v)) return false;
        const auto e = metrics::event_from_name(key_);
        if (!e) return false;
        out.set(*e, v);
    } while (c_.eat(','));
    return c_.eat('}');
}

// read_benchmark recomputes the derived hits from the events.
bool Reader::skip_derived() {
    if (c_.peek() == 'n') return c_.literal("null");
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        std::uint64_t ignored = 0;
        if (!c_.string(key_) || !c_.eat(':') || !unsigned_value(ignored)) return false;
    } while (c_.eat(','));
    return c_.eat('}');
}

bool Reader::weights(metrics::Weights& out) {
    out = metrics::Weights{"custom", 0, 0, 0, false};
    unsigned seen = 0;
    if (!c_.eat('{') || c_.eat('}')) return false;
    do {
        if (!c_.string(key_) || !c_.eat(':')) return false;
        if (key_ == "preset") {
            if (!text(out.name)) return false;
        } else if (key_ == "instructions_only") {
            out.instructions_only = c_.peek() == 't';
            if (!c_.literal(out.instructions_only ? "true" : "false")) return false;
        } else {
            const unsigned bit = key_ == "l1" ? 1 : key_ == "ll" ? 2 : key_ == "ram" ? 4 : 0;
            if (bit == 0 || (seen & bit) != 0) return false;
            seen |= bit;
            if (!unsigned_value(bit == 1 ? out.l1 : bit == 2 ? out.ll : out.ram)) return false;
        }
    } while (c_.eat(','));
    return c_.eat('}') && seen == 7;
}

bool Reader::verify(BenchmarkResult& b) {
    if (!c_.eat('{') || c_.eat('}')) return false;
    do {
        if (!c_.string(key_) || !c_.eat(':')) return false;
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

bool Reader::spread(std::vector<EventSpread>& out) {
    if (!c_.eat('{')) return false;
    if (c_.eat('}')) return true;
    do {
        if (!c_.string(key_) || !c_.eat(':') || !c_.eat('{')) return false;
        const auto e = metrics::event_from_name(key_);
        std::uint64_t min = 0;
        std::uint64_t max = 0;
        if (!e || !c_.string(key_) || key_ != "min" || !c_.eat(':') || !unsigned_value(min) ||
            !c_.eat(',') || !c_.string(key_) || key_ != "max" || !c_.eat(':') ||
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

std::optional<BenchmarkResult> read_known_benchmark(std::string_view json) {
    BenchmarkResult b;
    Reader reader(json);
    if (!reader.read(b)) return std::nullopt;
    try {
        b.derived = metrics::derive(b.events);
    } catch (const UsageError&) {
        return std::nullopt;  // the DOM reader reports it with the file and the reason
    }
    return b;
}

}  // namespace cgbench::store
