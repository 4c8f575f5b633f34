#include "runner/repeatability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// The C library's clock reads, with the instructions one read takes (glibc 2.36 under
// Valgrind, which gives programs no vDSO: every read is a system call), for "about N reads".
struct ClockRead {
    std::string_view name;
    std::uint64_t ir_per_read;
};
constexpr std::array<ClockRead, 6> kClockReads = {{{"clock_gettime", 10},
                                                   {"__clock_gettime", 10},
                                                   {"__clock_gettime64", 10},
                                                   {"__gettimeofday_syscall", 7},
                                                   {"time_syscall", 5},
                                                   {"__time_syscall", 5}}};
// About 100 reads: more than start-up code makes (git 2, bash 3, zstd 5 reads).
constexpr std::uint64_t kClockLoopIr = 1000;
// time(): one read is a seed, or a time stamp.
constexpr std::array<std::string_view, 2> kTimeReads = {"time_syscall", "__time_syscall"};
// Entropy read through a function that says so.
constexpr std::array<std::string_view, 4> kEntropyReads = {"getentropy", "arc4random",
                                                           "arc4random_buf", "arc4random_uniform"};
constexpr std::array<std::string_view, 2> kEntropyParts = {"random_device", "hashmap_random_keys"};
// read(2) through the C library (the loader's own reads are __read_nocancel).
constexpr std::array<std::string_view, 3> kReads = {"read", "__libc_read", "__read"};
// getrandom: the C library's malloc makes one call at start-up: 7 instructions on glibc 2.36,
// 21 when the first malloc comes after a thread started (getrandom is then a cancellation
// point, and takes the longer path). Two calls of either kind exceed the allowance. From glibc
// 2.41 malloc makes none, and a call goes through getrandom_vdso (43 instructions with
// getrandom's own 2, glibc 2.43): one call by the program then exceeds it, as it should.
constexpr std::array<std::string_view, 3> kGetrandom = {"getrandom", "__getrandom",
                                                        "getrandom_vdso"};
constexpr std::uint64_t kMallocGetrandomIr = 12;
constexpr std::uint64_t kThreadedMallocGetrandomIr = 24;

enum class Runtime { Other, Python, Perl, Lua, Ruby, Go, V8 };

struct Marker {
    std::string_view name;  // a function of the runtime (its exported API, never stripped)
    Runtime runtime;
    bool prefix = false;
};
constexpr std::array<Marker, 11> kMarkers = {{{"Py_BytesMain", Runtime::Python},
                                              {"Py_RunMain", Runtime::Python},
                                              {"Py_InitializeFromConfig", Runtime::Python},
                                              {"perl_construct", Runtime::Perl},
                                              {"lua_newstate", Runtime::Lua},
                                              {"ruby_init", Runtime::Ruby},
                                              {"ruby_setup", Runtime::Ruby},
                                              {"runtime.schedinit", Runtime::Go},
                                              {"runtime.fastrand", Runtime::Go, true},
                                              {"v8::internal::Isolate::Init", Runtime::V8, true},
                                              {"v8::internal::Heap::SetUp", Runtime::V8, true}}};

// "clock_gettime@@GLIBC_2.17" -> "clock_gettime".
std::string_view base_name(std::string_view name) {
    return name.substr(0, name.find('@'));
}

bool contains(auto const& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

// What one process's watched functions show.
struct Reads {
    std::uint64_t clock_ir = 0;
    std::uint64_t clock_reads = 0;  // estimated from clock_ir
    bool time = false;
    std::uint64_t getrandom_ir = 0;
    std::vector<std::string> entropy;  // the functions that read it
    Runtime runtime = Runtime::Other;
    bool reads = false;  // it called read()
};

Reads reads_of(const ProcessEvidence& p) {
    Reads r;
    for (const auto& f : p.watched) {
        const std::string_view name = base_name(f.name);
        const std::uint64_t ir = f.counts.get(metrics::Event::Ir);
        for (const auto& m : kMarkers) {
            if (m.prefix ? name.starts_with(m.name) : name == m.name) r.runtime = m.runtime;
        }
        if (ir == 0) continue;
        for (const auto& c : kClockReads) {
            if (name != c.name) continue;
            r.clock_ir += ir;
            r.clock_reads += ir / c.ir_per_read;
        }
        r.time = r.time || contains(kTimeReads, name);
        r.reads = r.reads || contains(kReads, name);
        if (contains(kGetrandom, name)) r.getrandom_ir += ir;
        if (contains(kEntropyReads, name)) r.entropy.emplace_back(name);
        for (const auto part : kEntropyParts) {
            const bool named = name.find(part) != name.npos;
            if (named && !contains(r.entropy, part)) r.entropy.emplace_back(part);
        }
    }
    const auto allowance = p.threads > 1 ? kThreadedMallocGetrandomIr : kMallocGetrandomIr;
    if (r.getrandom_ir > allowance) r.entropy.emplace_back("getrandom");
    return r;
}

constexpr std::string_view kVerify = " (check with --verify 3)";

std::string runtime_warning(Runtime runtime, const std::string& who, exec::FixedInputs fixed) {
    switch (runtime) {
        case Runtime::Ruby:
            // Ruby 3.1 seeds them from getentropy: with --fixed-random 5 of 5 runs were equal.
            if (fixed.random) return {};
            return fmt::format(
                "{} is Ruby, which seeds its hash tables at start-up from entropy: its counts "
                "differ from run to run by a few hundredths of a percent; --fixed-random shows "
                "it a fixed stream (this changes what it sees){}",
                who, kVerify);
        case Runtime::Go:
            return fmt::format(
                "{} is a Go program: its runtime randomises map seeds at start-up, so its "
                "counts differ from run to run{}",
                who, kVerify);
        case Runtime::V8:
            return fmt::format(
                "{} runs V8 (Node.js), which randomises its hash seed: counts differ from run "
                "to run; node --hash-seed=1 --random-seed=1 shrinks the spread{}",
                who, kVerify);
        default:
            return {};
    }
}

std::string entropy_warning(const Reads& r, const std::string& who) {
    std::string why = "whatever it seeds from it (a hash table, a shuffle) differs from run to run";
    if (contains(r.entropy, "hashmap_random_keys")) {
        why =
            "Rust's HashMap seeds itself from it (hashmap_random_keys), so its layout differs "
            "from run to run; a BTreeMap or a fixed hasher does not";
    } else if (r.runtime == Runtime::Python) {
        why =
            "Python's random module seeds itself from it unless the script calls "
            "random.seed()";
    }
    return fmt::format(
        "{} reads entropy ({}): {}; --fixed-random shows it a fixed stream (this "
        "changes what it sees){}",
        who, util::join(r.entropy, ", "), why, kVerify);
}

// The warnings about the clock and entropy reads of process `p`.
void process_warnings(const ProcessEvidence& p, const std::string& who, exec::FixedInputs fixed,
                      std::vector<std::string>& out) {
    const Reads r = reads_of(p);
    if (auto w = runtime_warning(r.runtime, who, fixed); !w.empty()) out.push_back(std::move(w));
    if (!fixed.clock && r.runtime == Runtime::Lua && r.time) {
        out.push_back(
            fmt::format("{} is Lua, which seeds its string hashes from the clock "
                        "(time()), so its counts differ from run to run; "
                        "--fixed-clock pins the clock it sees{}",
                        who, kVerify));
    } else if (!fixed.clock && r.time && r.runtime != Runtime::Python &&
               r.runtime != Runtime::Perl) {
        out.push_back(fmt::format(
            "{} reads the clock with time(), the usual seed (srand(time(NULL))): if the time "
            "decides its work, counts differ from run to run; --fixed-clock pins the clock it "
            "sees{}",
            who, kVerify));
    }
    if (!fixed.clock && r.clock_ir >= kClockLoopIr && r.runtime != Runtime::Python) {
        out.push_back(fmt::format(
            "{} reads the clock about {} times: a loop that runs for a set time (a benchmark "
            "timing itself) does other work on every run; --fixed-clock shows it a clock that "
            "advances 1 ms per read{}",
            who, util::with_commas(r.clock_reads), kVerify));
    }
    if (!fixed.random && !r.entropy.empty()) out.push_back(entropy_warning(r, who));
}

bool ancestor(const std::vector<ProcessEvidence>& ps, std::size_t a, std::size_t b) {
    for (auto p = ps[b].parent; p; p = ps[*p].parent) {
        if (*p == a) return true;
        if (*p >= b) break;  // parents come first: a loop would be a damaged log
    }
    return false;
}

// A process that read() while another one, neither started by the other, ran beside it for
// longer than a scheduler's whim: (reader, other). Workers that only write to their parent
// do not count: the parent reads, but it started them.
std::optional<std::pair<std::size_t, std::size_t>> concurrent_reader(
    const std::vector<ProcessEvidence>& ps) {
    constexpr std::int64_t kOverlapNs = 20'000'000;
    for (std::size_t a = 0; a < ps.size(); ++a) {
        for (std::size_t b = 0; b < ps.size(); ++b) {
            if (a == b || ps[a].started_ns == 0 || ps[b].started_ns == 0) continue;
            const auto overlap = std::min(ps[a].ended_ns, ps[b].ended_ns) -
                                 std::max(ps[a].started_ns, ps[b].started_ns);
            if (overlap > kOverlapNs && reads_of(ps[a]).reads && !ancestor(ps, a, b) &&
                !ancestor(ps, b, a)) {
                return std::pair{a, b};
            }
        }
    }
    return std::nullopt;
}

}  // namespace

bool repeatability_function(std::string_view name) {
    const std::string_view base = base_name(name);
    const auto is = [&](const auto& list) { return contains(list, base); };
    if (is(kGetrandom) || is(kTimeReads) || is(kEntropyReads) || is(kReads)) {
        return true;
    }
    for (const auto& c : kClockReads) {
        if (base == c.name) return true;
    }
    for (const auto& m : kMarkers) {
        if (m.prefix ? base.starts_with(m.name) : base == m.name) return true;
    }
    return std::any_of(kEntropyParts.begin(), kEntropyParts.end(),
                       [&](std::string_view s) { return base.find(s) != base.npos; });
}

std::vector<std::string> repeatability_warnings(const std::vector<ProcessEvidence>& processes,
                                                exec::FixedInputs fixed) {
    std::vector<std::string> out;
    for (const auto& p : processes) {
        const std::string who = processes.size() == 1
                                    ? std::string("the program")
                                    : fmt::format("'{}'", util::printable(p.command));
        process_warnings(p, who, fixed, out);
    }
    if (const auto pair = concurrent_reader(processes)) {
        out.push_back(fmt::format(
            "'{}' read its input while '{}' ran at the same time: a process reading a pipe "
            "another one writes (a shell pipeline) gets the data in pieces that depend on "
            "scheduling, so its counts differ from run to run by a few hundred instructions; "
            "write the data to a file first, or measure the stages apart{}",
            util::printable(processes[pair->first].command),
            util::printable(processes[pair->second].command), kVerify));
    }
    return out;
}

}  // namespace cgbench::runner
