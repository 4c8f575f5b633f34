#include "compare/attribution.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

// b - a as a signed 64-bit number, saturating (costs are unsigned 64-bit).
std::int64_t signed_delta(std::uint64_t a, std::uint64_t b) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (b >= a) return static_cast<std::int64_t>(std::min(b - a, kMax));
    return -static_cast<std::int64_t>(std::min(a - b, kMax));
}

std::uint64_t magnitude(std::int64_t v) {
    return v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
}

using Functions = std::map<std::pair<std::string, std::string>, FunctionChange>;

// The one-sided functions of each side, by (file, key).
using Unpaired = std::map<std::pair<std::string, std::string>, std::vector<Functions::iterator>>;

void collect_unpaired(Functions& by_key, Unpaired& base_only, Unpaired& head_only,
                      std::string (*key_of)(std::string_view)) {
    for (auto it = by_key.begin(); it != by_key.end(); ++it) {
        const bool in_base = it->second.base.has_value();
        if (in_base == it->second.head.has_value()) continue;
        (in_base ? base_only : head_only)[{it->first.first, key_of(it->first.second)}].push_back(
            it);
    }
}

// Moves the base's cost of `old` onto `target` (the head's entry) and drops `old`.
void pair(Functions& by_key, Functions::iterator old, FunctionChange& target) {
    target.base = old->second.base;
    target.base_name = old->second.name;
    by_key.erase(old);
}

// Pairs a function listed in the base only with one listed in the head only when both have
// the same file and the same name without its parameter list, one of them has none, and no
// other unpaired function of either side has that name: one function named two ways
// (Callgrind 3.24 dropped the parameter lists of overloaded C++ functions, Valgrind bug
// 497723; 3.25 restored them). The pair keeps the head's name.
void match_parameter_lists(Functions& by_key) {
    Unpaired base_only, head_only;
    collect_unpaired(by_key, base_only, head_only, function_without_parameters);
    for (auto& [key, olds] : base_only) {
        const auto news = head_only.find(key);
        if (olds.size() != 1 || news == head_only.end() || news->second.size() != 1) continue;
        auto& target = news->second.front()->second;
        // One of the two names is the bare one: a parameter list dropped or restored, not
        // one overload replaced by another.
        if (olds.front()->second.name != key.second && target.name != key.second) continue;
        pair(by_key, olds.front(), target);
    }
}

// Callgrind names a function without symbols by its address ("0x0000000000111000"); for a
// position-independent executable that is its load address plus its offset, and Valgrind
// 3.25 moved that load address (0x108000 before, bug 290061; where the address space has
// room after, 0x4000000 on amd64). Unnamed functions of one file whose addresses differ by
// one shift are one function each: the shift pairing the most of them is taken when it
// pairs two or more, or is that known move.
constexpr std::uint64_t kPieMove = 0x4000000 - 0x108000;

std::optional<std::uint64_t> address_name(std::string_view name) {
    if (name.size() != 18 || !name.starts_with("0x")) return std::nullopt;
    std::uint64_t v = 0;
    for (const char c : name.substr(2)) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return std::nullopt;
        v = v * 16 + static_cast<std::uint64_t>(d);
    }
    return v;
}

void match_moved_addresses(Functions& by_key) {
    std::map<std::string, std::vector<std::pair<std::uint64_t, Functions::iterator>>> olds, news;
    for (auto it = by_key.begin(); it != by_key.end(); ++it) {
        const auto at = address_name(it->first.second);
        const bool in_base = it->second.base.has_value();
        if (!at || in_base == it->second.head.has_value()) continue;
        (in_base ? olds : news)[it->first.first].push_back({*at, it});
    }
    for (auto& [file, base_side] : olds) {
        auto& head_side = news[file];
        std::map<std::uint64_t, int> votes;  // head address - base address
        for (const auto& [a, _] : base_side)
            for (const auto& [b, __] : head_side)
                ++votes[b - a];
        std::uint64_t shift = 0;
        int best = 0;
        for (const auto& [d, n] : votes)
            if (n > best) std::tie(shift, best) = std::pair{d, n};
        if (best < 2 && !votes.count(kPieMove)) continue;
        if (best < 2) shift = kPieMove;
        std::map<std::uint64_t, Functions::iterator> head_at;
        for (const auto& [b, it] : head_side)
            head_at[b] = it;
        for (const auto& [a, it] : base_side) {
            const auto found = head_at.find(a + shift);
            if (found != head_at.end()) pair(by_key, it, found->second->second);
        }
    }
}

}  // namespace

std::string function_without_parameters(std::string_view name) {
    std::string_view s = name;
    // Trailing qualifiers of a member function: "f(int) const &".
    for (bool again = true; again;) {
        again = false;
        for (const std::string_view q : {" const", " volatile", " &&", " &", " noexcept"}) {
            if (s.ends_with(q)) {
                s.remove_suffix(q.size());
                again = true;
            }
        }
    }
    if (!s.ends_with(')')) return std::string(name);
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')') ++depth;
        if (s[i] == '(' && --depth == 0) {
            // "(below main)" and the like are names, not parameter lists.
            return i == 0 ? std::string(name) : std::string(s.substr(0, i));
        }
    }
    return std::string(name);
}

std::vector<FunctionChange> attribute_change(const BenchmarkResult& base,
                                             const BenchmarkResult& head, std::size_t limit) {
    Functions by_key;
    for (const auto& f : base.functions) {
        auto& c = by_key[{f.file, f.name}];
        c.file = f.file;
        c.name = f.name;
        c.base = f.cost;
    }
    for (const auto& f : head.functions) {
        auto& c = by_key[{f.file, f.name}];
        c.file = f.file;
        c.name = f.name;
        c.head = f.cost;
    }
    match_parameter_lists(by_key);
    match_moved_addresses(by_key);
    const std::int64_t total = signed_delta(base.cost, head.cost);
    std::vector<FunctionChange> out;
    for (auto& [key, c] : by_key) {
        c.delta = signed_delta(c.base.value_or(0), c.head.value_or(0));
        if (c.delta == 0) continue;
        if (total != 0) c.share = static_cast<double>(c.delta) / static_cast<double>(total);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const FunctionChange& a, const FunctionChange& b) {
        return magnitude(a.delta) > magnitude(b.delta);
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

namespace {

// Counted processes by key: "command", then "command #2", ... for repeats.
std::map<std::string, std::uint64_t> process_costs(const BenchmarkResult& b) {
    std::map<std::string, std::uint64_t> out;
    if (b.processes.empty()) {
        out[util::join(b.command, " ")] = b.cost;
        return out;
    }
    std::map<std::string, int> seen;
    for (const auto& p : b.processes) {
        if (!p.counted) continue;
        const int n = ++seen[p.command];
        out[n == 1 ? p.command : p.command + " #" + std::to_string(n)] = p.cost;
    }
    return out;
}

}  // namespace

std::vector<ProcessChange> attribute_process_change(const BenchmarkResult& base,
                                                    const BenchmarkResult& head,
                                                    std::size_t limit) {
    if (base.processes.empty() && head.processes.empty()) return {};
    std::map<std::string, ProcessChange> by_key;
    for (const auto& [key, cost] : process_costs(base)) {
        by_key[key].process = key;
        by_key[key].base = cost;
    }
    for (const auto& [key, cost] : process_costs(head)) {
        by_key[key].process = key;
        by_key[key].head = cost;
    }
    const std::int64_t total = signed_delta(base.cost, head.cost);
    std::vector<ProcessChange> out;
    for (auto& [key, c] : by_key) {
        c.delta = signed_delta(c.base.value_or(0), c.head.value_or(0));
        if (c.delta == 0 && c.base && c.head) continue;
        if (total != 0) c.share = static_cast<double>(c.delta) / static_cast<double>(total);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const ProcessChange& a, const ProcessChange& b) {
        return magnitude(a.delta) > magnitude(b.delta);
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace cgbench::compare
