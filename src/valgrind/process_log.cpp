#include "valgrind/process_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <initializer_list>

#include "util/strings.hpp"

namespace cgbench::valgrind {

namespace {

// Cachegrind's notes on how it fitted the host's caches: printed by every process that
// starts, whatever the geometry asked for.
constexpr std::array<std::string_view, 3> kStartupNoise = {
    "warning: L3 cache found", "warning: specified LL cache", "warning: simulated LL cache"};

std::optional<int> leading_int(std::string_view s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end == s.data()) return std::nullopt;
    return v;
}

// Splits "==123== text" / "--123-- text" into the pid and the text.
std::optional<std::pair<int, std::string_view>> split_prefix(std::string_view line) {
    if (line.size() < 5 || !(line.starts_with("==") || line.starts_with("--"))) return std::nullopt;
    const std::string_view mark = line.substr(0, 2);
    const auto end = line.find(mark, 2);
    if (end == std::string_view::npos) return std::nullopt;
    const auto pid = leading_int(line.substr(2, end - 2));
    if (!pid) return std::nullopt;
    return std::pair{*pid, util::trim(line.substr(end + 2))};
}

bool is_note(std::string_view text) {
    for (const auto noise : kStartupNoise) {
        if (text.starts_with(noise)) return false;
    }
    return text.starts_with("Warning:") || text.starts_with("warning:") ||
           text.starts_with("Error:") || text.starts_with("error:") ||
           text.starts_with("Possible workaround:") || text.starts_with("FATAL:");
}

// The text of a client message line "**123** text" (VALGRIND_PRINTF), untrimmed.
std::optional<std::string_view> client_message(std::string_view line) {
    if (!line.starts_with("**")) return std::nullopt;
    const auto end = line.find("** ", 2);
    if (end == std::string_view::npos || !leading_int(line.substr(2, end - 2))) return std::nullopt;
    return line.substr(end + 3);
}

// A region marker starting at lines[i] (continued on the following client message lines
// while its name is shorter than its length); advances `i` past its last line.
std::optional<RegionMark> region_mark(const std::vector<std::string_view>& lines, std::size_t& i) {
    const auto body = client_message(lines[i]);
    if (!body) return std::nullopt;
    RegionMark mark;
    std::string_view rest = *body;
    if (rest.starts_with("cgbench:begin:")) {
        mark.begin = true;
        rest.remove_prefix(14);
    } else if (rest.starts_with("cgbench:end:")) {
        rest.remove_prefix(12);
    } else {
        return std::nullopt;
    }
    const auto colon = rest.find(':');
    const auto length = leading_int(rest.substr(0, colon));
    if (colon == std::string_view::npos || !length || *length < 0) return std::nullopt;
    mark.name = std::string(rest.substr(colon + 1));
    const auto want = static_cast<std::size_t>(*length);
    while (mark.name.size() < want && i + 1 < lines.size()) {
        const auto more = client_message(lines[i + 1]);
        if (!more) break;
        mark.name += '\n';
        mark.name += *more;
        ++i;
    }
    return mark;
}

// Follows the scheduler's lock: a thread that releases it because its timeslice ended, and
// another thread that acquires it next, is one preemption. `timeslice_of` is that thread's
// number, 0 for none (Valgrind numbers threads from 1).
void count_preemption(std::string_view sched, int& timeslice_of, int& count) {
    const auto thread = leading_int(sched.substr(6));
    if (!thread) return;
    if (sched.find("releasing lock (VG_(scheduler):timeslice)") != std::string_view::npos) {
        timeslice_of = *thread;
    } else if (sched.find("releasing lock") != std::string_view::npos) {
        timeslice_of = 0;
    } else if (sched.find("acquired lock") != std::string_view::npos) {
        if (timeslice_of != 0 && timeslice_of != *thread) ++count;
        timeslice_of = 0;
    }
}

}  // namespace

ProcessLog parse_process_log(std::string_view text) {
    ProcessLog log;
    constexpr std::string_view kSignal = "Process terminating with default action of signal ";
    constexpr std::string_view kThreadStart = "acquired lock (thread_wrapper(starting new thread))";
    const auto lines = util::split(text, '\n');
    int timeslice_of = 0;  // the thread whose timeslice ended, until the next acquire
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (auto mark = region_mark(lines, i)) {
            log.region_marks.push_back(std::move(*mark));
            continue;
        }
        if (client_message(lines[i]) == "cgbench:nested") {
            log.regions_nested = true;
            continue;
        }
        const std::string_view line = util::trim(lines[i]);
        constexpr std::string_view kUnhandled = "->IR: unhandled instruction bytes: ";
        if (line.starts_with("vex ") && log.unhandled_instruction.empty()) {
            if (const auto at = line.find(kUnhandled); at != std::string_view::npos) {
                log.unhandled_instruction =
                    std::string(util::trim(line.substr(at + kUnhandled.size())));
            }
            continue;
        }
        if (line.starts_with("valgrind: ")) {
            log.notes.emplace_back(line);
            continue;
        }
        const auto parts = split_prefix(line);
        if (!parts) continue;
        const auto& [pid, body] = *parts;
        if (log.pid == 0) log.pid = pid;
        if (body.starts_with("SCHED[")) {
            if (body.ends_with(kThreadStart)) ++log.threads;
            count_preemption(body, timeslice_of, log.preemptions);
        } else if (body.starts_with("Command: ")) {
            log.command = std::string(body.substr(9));
        } else if (body.starts_with("Parent PID: ")) {
            log.parent_pid = leading_int(body.substr(12));
        } else if (body.starts_with(kSignal)) {
            log.fatal_signal = leading_int(body.substr(kSignal.size()));
        } else if (is_note(body)) {
            log.notes.emplace_back(body);
        }
    }
    return log;
}

std::string describe_unhandled_instruction(std::string_view bytes) {
    // The bytes up to the opcode; Valgrind prints the next ones too.
    std::vector<std::string_view> words;
    for (const auto w : util::split(util::trim(bytes), ' ')) {
        if (!w.empty()) words.push_back(w);
    }
    const auto starts = [&](std::initializer_list<std::string_view> prefix) {
        return words.size() >= prefix.size() &&
               std::equal(prefix.begin(), prefix.end(), words.begin());
    };
    const std::string shown =
        util::join(std::vector<std::string>(words.begin(),
                                            words.begin() + std::min<std::size_t>(words.size(), 4)),
                   " ");
    if (starts({"0xF", "0x1", "0xF9"})) {
        return fmt::format(
            "RDTSCP ({}), which this Valgrind cannot decode: Go up to 1.20 reads the clock with it "
            "(pass --env GODEBUG=cpu.rdtscp=off), other programs need a build without it",
            shown);
    }
    if (starts({"0x62"})) {
        return fmt::format(
            "an AVX-512 instruction ({}), which Valgrind cannot run: build the "
            "program without AVX-512 (e.g. -march=x86-64-v3)",
            shown);
    }
    return fmt::format(
        "an instruction Valgrind cannot decode ({}): build the program for an "
        "older CPU (e.g. -march=x86-64-v2), or use a newer Valgrind",
        shown);
}

}  // namespace cgbench::valgrind
