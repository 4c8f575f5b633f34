#include "compare/line_diff.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace cgbench::compare {

namespace {

// What pairs two lines: file, function, and the text with whitespace runs as one space (or,
// without text, the line number).
using Key = std::tuple<std::string, std::string, std::string>;

Key key_of(const LineResult& l) {
    std::string text;
    bool space = false;
    for (const char c : l.text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            space = !text.empty();
            continue;
        }
        if (space) text += ' ';
        space = false;
        text += c;
    }
    if (text.empty()) text = "#" + std::to_string(l.line);
    return {l.file, l.function, std::move(text)};
}

// The indices of `lines` by key, each list in the order of line numbers.
std::map<Key, std::vector<std::size_t>> by_key(const std::vector<LineResult>& lines) {
    std::map<Key, std::vector<std::size_t>> out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out[key_of(lines[i])].push_back(i);
    for (auto& [key, list] : out) {
        std::sort(list.begin(), list.end(),
                  [&](std::size_t a, std::size_t b) { return lines[a].line < lines[b].line; });
    }
    return out;
}

std::uint64_t cheapest(const std::vector<LineResult>& lines) {
    std::uint64_t out = std::numeric_limits<std::uint64_t>::max();
    for (const auto& l : lines)
        out = std::min(out, l.cost);
    return out;
}

std::int64_t difference(std::uint64_t head, std::uint64_t base) {
    return head >= base ? static_cast<std::int64_t>(head - base)
                        : -static_cast<std::int64_t>(base - head);
}

LineChange change_of(const LineResult* b, const LineResult* h, std::uint64_t base_floor,
                     std::uint64_t head_floor) {
    const LineResult& any = h != nullptr ? *h : *b;
    LineChange c{any.file, any.function, any.text, {}, {}, {}, {}, 0, false};
    if (b != nullptr) {
        c.base_line = b->line;
        c.base = b->cost;
    }
    if (h != nullptr) {
        c.head_line = h->line;
        c.head = h->cost;
    }
    if (b != nullptr && h != nullptr) {
        c.delta = difference(h->cost, b->cost);
    } else if (h != nullptr) {
        // The base kept no such line: it cost at most the base's cheapest kept line there.
        c.delta = difference(h->cost, std::min(h->cost, base_floor));
        c.at_least = true;
    } else {
        c.delta = difference(std::min(b->cost, head_floor), b->cost);
        c.at_least = true;
    }
    return c;
}

}  // namespace

std::vector<LineChange> diff_lines(const std::vector<LineResult>& base,
                                   const std::vector<LineResult>& head, std::size_t limit) {
    if (base.empty() || head.empty()) return {};
    const std::uint64_t base_floor = cheapest(base);
    const std::uint64_t head_floor = cheapest(head);
    const auto base_keys = by_key(base);
    std::vector<LineChange> out;
    std::vector<bool> base_paired(base.size(), false);
    for (const auto& [key, list] : by_key(head)) {
        const auto it = base_keys.find(key);
        for (std::size_t k = 0; k < list.size(); ++k) {
            const LineResult* b = nullptr;
            if (it != base_keys.end() && k < it->second.size()) {
                b = &base[it->second[k]];
                base_paired[it->second[k]] = true;
            }
            out.push_back(change_of(b, &head[list[k]], base_floor, head_floor));
        }
    }
    for (std::size_t i = 0; i < base.size(); ++i) {
        if (!base_paired[i]) out.push_back(change_of(&base[i], nullptr, base_floor, head_floor));
    }
    std::erase_if(out, [](const LineChange& c) { return c.delta == 0; });
    const auto magnitude = [](std::int64_t d) { return d < 0 ? -(d + 1) : d; };
    std::sort(out.begin(), out.end(), [&](const LineChange& a, const LineChange& b) {
        if (magnitude(a.delta) != magnitude(b.delta))
            return magnitude(a.delta) > magnitude(b.delta);
        if (a.file != b.file) return a.file < b.file;
        if (a.function != b.function) return a.function < b.function;
        return a.head_line.value_or(0) < b.head_line.value_or(0);
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace cgbench::compare
