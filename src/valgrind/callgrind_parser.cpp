#include "valgrind/callgrind_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "util/strings.hpp"
#include "valgrind/line_scanner.hpp"

namespace cgbench::valgrind {

namespace {

// One of the three name spaces of string compression: files, functions, objects.
using NameTable = std::unordered_map<std::uint64_t, std::string_view>;

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Skips one subposition ("12", "0x1f", "+3", "-3", "*") at the start of `s` (after blanks);
// false when there is none or it is malformed.
bool skip_subposition(std::string_view& s) {
    std::size_t i = 0;
    while (i < s.size() && is_blank(s[i]))
        ++i;
    if (i == s.size()) return false;
    std::size_t digits = 0;
    if (s[i] == '*') {
        ++i;
        digits = 1;
    } else if (s.substr(i, 2) == "0x") {
        for (i += 2; i < s.size() && is_hex(s[i]); ++i)
            ++digits;
    } else {
        if (s[i] == '+' || s[i] == '-') ++i;
        for (; i < s.size() && is_digit(s[i]); ++i)
            ++digits;
    }
    if (digits == 0 || (i < s.size() && !is_blank(s[i]))) return false;
    s.remove_prefix(i);
    return true;
}

class CallgrindParser {
  public:
    CallgrindParser(std::string_view data, const ParseOptions& options)
        : scanner_(data), builder_("callgrind", options), collect_calls_(options.collect_calls) {}

    Profile run() {
        std::string_view line;
        while (scanner_.next(line))
            handle(line);
        if (!builder_.has_events())
            fail(0, "no 'events:' line (empty or not a callgrind.out file)");
        if (call_pending_) fail(0, "the file ends after a 'calls=' line (it is truncated)");
        if (!saw_totals_) fail(0, "no 'totals:' line (the file is truncated)");
        Profile profile = builder_.finish();
        profile.calls.reserve(call_sums_.size());
        for (auto& [key, counts] : call_sums_) {
            profile.calls.push_back(CallCost{std::string(key.caller_file), std::string(key.caller),
                                             std::string(key.callee_file), std::string(key.callee),
                                             std::move(counts)});
        }
        return profile;
    }

  private:
    [[noreturn]] static void fail(std::size_t line, const std::string& reason) {
        ProfileBuilder::fail(line, reason);
    }
    std::size_t at() const { return scanner_.number(); }

    void handle(std::string_view line) {
        if (in_trigger_ && continues_trigger(line)) return;
        if (line.empty() || line.front() == '#') return;
        const char c = line.front();
        if (call_pending_) {
            call_pending_ = false;
            if (!(is_digit(c) || c == '+' || c == '-' || c == '*')) {
                fail(at(), "a 'calls=' line must be followed by its cost line");
            }
            cost_line(line, false);
            if (collect_calls_ && !fn_.empty() && !callee_.empty()) add_call();
            callee_file_.reset();  // a cfi= names the file of the next call only
        } else if (saw_totals_) {
            if (!util::trim(line).empty()) fail(at(), "content after 'totals:'");
        } else if (is_digit(c) || c == '+' || c == '-' || c == '*') {
            cost_line(line, true);
        } else {
            // "key=value" is a position or call specification, "key: value" a header line.
            std::size_t k = 0;
            while (k < line.size() && ((line[k] >= 'a' && line[k] <= 'z') || line[k] == '_'))
                ++k;
            if (k > 0 && k < line.size() && line[k] == '=') {
                specification(line.substr(0, k), line.substr(k + 1));
            } else if (k > 0 && k < line.size() && line[k] == ':') {
                header(line.substr(0, k), util::trim(line.substr(k + 1)));
            } else if (!util::trim(line).empty()) {
                fail(at(),
                     fmt::format("unexpected line '{}'", util::printable(line.substr(0, 40))));
            }
        }
    }

    void need_events() const {
        if (!builder_.has_events()) fail(at(), "data before the 'events:' line");
    }

    void cost_line(std::string_view line, bool self) {
        need_events();
        skip_positions(line);
        builder_.read_row(line, at());
        if (self) builder_.add_row(at());
    }

    void skip_positions(std::string_view& rest) const {
        for (std::size_t i = 0; i < positions_; ++i) {
            if (!skip_subposition(rest)) {
                fail(at(),
                     fmt::format("malformed position (the file declares {} per line)", positions_));
            }
        }
    }

    // "fl=(3) name", "fn=(3)", "calls=2 0x12 4", ...: the key is before '='.
    void specification(std::string_view key, std::string_view value) {
        need_events();
        if (key == "fn") {
            fn_ = name(functions_, value);
            builder_.select_function(file_, fn_);
        } else if (key == "fl") {
            file_ = name(files_, value);
            position_file_ = file_;
            builder_.clear_function();
        } else if (key == "fi" || key == "fe") {
            position_file_ = name(files_, value);
        } else if (key == "cfi" || key == "cfl") {
            callee_file_ = name(files_, value);
        } else if (key == "jfi") {
            name(files_, value);
        } else if (key == "cfn") {
            callee_ = name(functions_, value);
        } else if (key == "jfn") {
            name(functions_, value);
        } else if (key == "ob" || key == "cob") {
            name(objects_, value);
        } else if (key == "calls") {
            std::uint64_t count = 0;
            if (next_number(value, count) != NumberStatus::Ok) fail(at(), "malformed call count");
            skip_positions(value);
            call_pending_ = true;
        } else if (key != "jump" && key != "jcnd") {
            fail(at(), fmt::format("unknown specification '{}='", util::printable(key)));
        }
    }

    // Resolves name compression: "(id) name" defines id, "(id)" refers to it, anything else
    // is an uncompressed name (which may itself start with '(', as "(below main)" does).
    std::string_view name(NameTable& table, std::string_view value) const {
        const auto close = value.find(')');
        const auto id = value.empty() || value.front() != '(' || close == std::string_view::npos
                            ? std::nullopt
                            : util::parse_u64(value.substr(1, close - 1));
        if (!id) return util::trim(value);
        const std::string_view text = util::trim(value.substr(close + 1));
        if (!text.empty()) {
            table[*id] = text;
            return text;
        }
        const auto it = table.find(*id);
        if (it == table.end()) fail(at(), fmt::format("name ({}) used before it is defined", *id));
        return it->second;
    }

    void header(std::string_view key, std::string_view value) {
        if (key == "events") {
            builder_.set_events(value, at());
        } else if (key == "positions") {
            positions_line(value);
        } else if (key == "totals") {
            need_events();
            builder_.read_row(value, at());
            builder_.check_totals("totals", at());
            saw_totals_ = true;
        } else if (key == "summary") {
            need_events();
            builder_.read_row(value, at());  // validated, not trusted (see the header)
        } else {
            known_header(key, value);
        }
    }

    void known_header(std::string_view key, std::string_view value) {
        Profile& p = builder_.profile();
        if (key == "desc") {
            p.desc.emplace_back(value);
            if (util::starts_with(value, "Trigger:")) {
                p.trigger = util::trim(value.substr(8));
                in_trigger_ = !builder_.has_events();
            }
        } else if (key == "cmd") {
            p.cmd = std::string(value);
        } else if (key == "part") {
            const auto part = util::parse_u64(value);
            if (!part) fail(at(), "malformed 'part:' number");
            p.part = *part;
        }
        // version, creator, pid, thread, event and future keys carry nothing cgbench uses.
    }

    // A client request's dump trigger (a region marker's name) is written unescaped: a name
    // holding newlines continues on the next lines, up to the blank line before `positions:`.
    // Such lines are added to the trigger (the region code then refuses the name).
    bool continues_trigger(std::string_view line) {
        if (line.empty() || util::starts_with(line, "positions:") ||
            util::starts_with(line, "events:")) {
            in_trigger_ = false;
            return false;
        }
        Profile& p = builder_.profile();
        p.trigger += '\n';
        p.trigger += line;
        p.desc.back() += '\n';
        p.desc.back() += line;
        return true;
    }

    void positions_line(std::string_view value) {
        if (builder_.has_events()) fail(at(), "'positions:' after 'events:'");
        positions_ = 0;
        for (const auto field : util::split(value, ' ')) {
            if (field.empty()) continue;
            if (field != "line" && field != "instr") {
                fail(at(), fmt::format("unknown position '{}'", util::printable(field)));
            }
            ++positions_;
        }
        if (positions_ == 0) fail(at(), "'positions:' lists no positions");
    }

    // The call just read (its cost line is the current row) added to its caller/callee pair.
    void add_call() {
        // Without cfi= the callee is in the file of the current position (fl=, fi= or fe=).
        const CallKey key{file_, fn_, callee_file_.value_or(position_file_), callee_};
        const auto [it, added] = call_index_.try_emplace(key, call_sums_.size());
        if (added) call_sums_.emplace_back(key, metrics::EventCounts{});
        call_sums_[it->second].second.add(builder_.row_counts());
    }

    struct CallKey {
        std::string_view caller_file;
        std::string_view caller;
        std::string_view callee_file;
        std::string_view callee;
        bool operator==(const CallKey&) const = default;
    };
    struct CallKeyHash {
        std::size_t operator()(const CallKey& k) const {
            const std::hash<std::string_view> h;
            return ((h(k.caller_file) * 31 + h(k.caller)) * 1000003U + h(k.callee_file)) * 31 +
                   h(k.callee);
        }
    };

    LineScanner scanner_;
    ProfileBuilder builder_;
    std::size_t positions_ = 1;  // "positions: line" unless the file says otherwise
    bool call_pending_ = false;
    bool saw_totals_ = false;
    bool in_trigger_ = false;  // after `desc: Trigger:`, before the header's blank line
    std::string_view file_;
    std::string_view fn_;                          // the function the cost lines belong to (fn=)
    std::string_view callee_;                      // the function the next call calls (cfn=)
    std::string_view position_file_;               // fl=, fi= or fe=: where cost lines are
    std::optional<std::string_view> callee_file_;  // cfi=/cfl= of the next call
    bool collect_calls_ = false;
    // Views into the file, which outlives the parse.
    std::unordered_map<CallKey, std::size_t, CallKeyHash> call_index_;
    std::vector<std::pair<CallKey, metrics::EventCounts>> call_sums_;
    NameTable files_;
    NameTable functions_;
    NameTable objects_;
};

}  // namespace

Profile parse_callgrind(std::string_view data, const ParseOptions& options) {
    return CallgrindParser(data, options).run();
}

Profile parse_callgrind_file(const std::filesystem::path& path, const ParseOptions& options) {
    return parse_profile_file(path, options, &parse_callgrind);
}

std::vector<std::filesystem::path> callgrind_part_files(const std::filesystem::path& base) {
    namespace fs = std::filesystem;
    std::vector<fs::path> out;
    const std::string prefix = base.filename().string() + ".";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(base.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (util::starts_with(name, prefix) && util::parse_u64(name.substr(prefix.size()))) {
            out.push_back(entry.path());
        }
    }
    if (fs::exists(base, ec)) out.push_back(base);
    return out;
}

std::vector<Profile> parse_callgrind_parts(const std::filesystem::path& base,
                                           const ParseOptions& options) {
    std::error_code ec;
    if (!std::filesystem::exists(base, ec)) {
        throw EnvironmentError(
            fmt::format("cannot read {}: Callgrind wrote no final dump", base.string()));
    }
    std::vector<Profile> parts;
    for (const auto& file : callgrind_part_files(base)) {
        parts.push_back(parse_callgrind_file(file, options));
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Profile& a, const Profile& b) { return a.part < b.part; });
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].part == parts[i - 1].part) {
            throw ParseError(0, fmt::format("two files hold dump part {}", parts[i].part),
                             base.string());
        }
    }
    return parts;
}

}  // namespace cgbench::valgrind
