#include "valgrind/profile_builder.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/mapped_file.hpp"
#include "util/strings.hpp"

namespace cgbench::valgrind {

namespace {
std::string locate(std::size_t line, const std::string& reason, const std::string& source) {
    std::string where = source;
    if (line != 0) where += (where.empty() ? "line " : ":") + std::to_string(line);
    return where.empty() ? reason : where + ": " + reason;
}
}  // namespace

ParseError::ParseError(std::size_t line, std::string reason, std::string source)
    : UsageError(locate(line, reason, source), "the file is not a complete Valgrind profile"),
      line_(line),
      reason_(std::move(reason)) {}

ProfileBuilder::ProfileBuilder(std::string_view tool, const ParseOptions& options)
    : options_(options) {
    profile_.tool = std::string(tool);
}

void ProfileBuilder::fail(std::size_t line, const std::string& reason) {
    throw ParseError(line, reason);
}

void ProfileBuilder::surplus_counts(std::size_t line) const {
    fail(line, fmt::format("more counts than the {} events declared", row_.size()));
}

void ProfileBuilder::set_events(std::string_view value, std::size_t line) {
    if (has_events()) fail(line, "a second 'events:' line");
    for (const auto field : util::split(util::trim(value), ' ')) {
        if (field.empty()) continue;
        for (const auto& known : profile_.column_names) {
            // Two columns for one event would make its total depend on their order.
            if (known == field)
                fail(line, fmt::format("'events:' lists {} twice", util::printable(field)));
        }
        profile_.column_names.emplace_back(field);
        profile_.columns.push_back(metrics::event_from_name(field));
    }
    if (profile_.columns.empty()) fail(line, "'events:' lists no events");
    sums_.assign(profile_.columns.size(), 0);
    row_.assign(profile_.columns.size(), 0);
}

std::size_t ProfileBuilder::function_index(std::string_view file, std::string_view name) {
    // Files change rarely (one `fl=` line, many `fn=` lines): hash each once.
    if (file.data() != hashed_file_.data() || file.size() != hashed_file_.size()) {
        hashed_file_ = file;
        file_hash_ = std::hash<std::string_view>{}(file);
    }
    const std::uint64_t hash =
        std::hash<std::string_view>{}(name) ^ (file_hash_ * 0x9e3779b97f4a7c15ULL);
    if ((keys_.size() + 1) * 2 > slots_.size()) grow_slots();
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = hash & mask;
    for (; slots_[at] != 0; at = (at + 1) & mask) {
        const std::size_t k = slots_[at] - 1;
        if (key_hashes_[k] == hash && keys_[k] == FnKey{file, name}) return k;
    }
    if (keys_.size() >= UINT32_MAX - 1) fail(0, "more than 4 billion functions");
    slots_[at] = static_cast<std::uint32_t>(keys_.size() + 1);
    keys_.push_back(FnKey{file, name});
    key_hashes_.push_back(hash);
    accum_.resize(accum_.size() + row_.size(), 0);
    return keys_.size() - 1;
}

void ProfileBuilder::grow_slots() {
    slots_.assign(std::max<std::size_t>(1024, slots_.size() * 2), 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = 0; k < keys_.size(); ++k) {
        std::size_t at = key_hashes_[k] & mask;
        while (slots_[at] != 0)
            at = (at + 1) & mask;
        slots_[at] = static_cast<std::uint32_t>(k + 1);
    }
}

void ProfileBuilder::select_function(std::string_view file, std::string_view name) {
    if (!options_.collect_functions) return;
    const std::size_t index = function_index(file, name);  // may grow accum_: before data()
    current_ = accum_.data() + index * row_.size();
    current_index_ = index;
}

void ProfileBuilder::add_line_row(std::uint32_t line) {
    const std::uint64_t key = (static_cast<std::uint64_t>(current_index_) << 32) | line;
    const auto [it, added] =
        line_rows_.try_emplace(key, static_cast<std::uint32_t>(line_keys_.size()));
    if (added) {
        if (line_keys_.size() >= UINT32_MAX - 1) fail(0, "more than 4 billion source lines");
        line_keys_.push_back(key);
        line_accum_.resize(line_accum_.size() + row_.size(), 0);
    }
    std::uint64_t* counts = line_accum_.data() + std::size_t{it->second} * row_.size();
    for (std::size_t i = 0; i < row_.size(); ++i)
        counts[i] += row_[i];  // the file's sums bound these: no overflow
}

void ProfileBuilder::emit_lines() {
    if (!options_.collect_lines) return;
    const auto counts_of = [&](std::size_t row) {
        metrics::EventCounts out;
        const std::uint64_t* counts = line_accum_.data() + row * row_.size();
        for (std::size_t c = 0; c < row_.size(); ++c) {
            if (profile_.columns[c]) out.set(*profile_.columns[c], counts[c]);
        }
        return out;
    };
    std::vector<std::uint64_t> rank(line_keys_.size());
    for (std::size_t i = 0; i < rank.size(); ++i)
        rank[i] = options_.function_rank ? options_.function_rank(counts_of(i)) : 0;
    std::vector<std::size_t> order(line_keys_.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto fn_of = [&](std::size_t i) { return keys_[line_keys_[i] >> 32]; };
    const std::size_t kept = options_.line_limit > 0 && options_.line_limit < order.size()
                                 ? options_.line_limit
                                 : order.size();
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                      [&](std::size_t a, std::size_t b) {
                          if (rank[a] != rank[b]) return rank[a] > rank[b];
                          const FnKey fa = fn_of(a), fb = fn_of(b);
                          if (fa.file != fb.file) return fa.file < fb.file;
                          if (fa.name != fb.name) return fa.name < fb.name;
                          return line_keys_[a] < line_keys_[b];
                      });
    profile_.lines.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i) {
        const FnKey fn = fn_of(order[i]);
        profile_.lines.push_back(LineCost{std::string(fn.file), std::string(fn.name),
                                          static_cast<std::uint32_t>(line_keys_[order[i]]),
                                          counts_of(order[i])});
    }
}

void ProfileBuilder::check_totals(std::string_view what, std::size_t line) {
    for (std::size_t i = 0; i < row_.size(); ++i) {
        if (row_[i] != sums_[i]) {
            fail(line, fmt::format("{} says {} {} but the lines add up to {}", what,
                                   profile_.column_names[i], row_[i], sums_[i]));
        }
        if (profile_.columns[i]) profile_.totals.set(*profile_.columns[i], row_[i]);
    }
}

metrics::EventCounts ProfileBuilder::function_counts(std::size_t index) const {
    metrics::EventCounts out;
    const std::uint64_t* counts = accum_.data() + index * row_.size();
    for (std::size_t c = 0; c < row_.size(); ++c) {
        if (profile_.columns[c]) out.set(*profile_.columns[c], counts[c]);
    }
    return out;
}

metrics::EventCounts ProfileBuilder::row_counts() const {
    metrics::EventCounts out;
    for (std::size_t c = 0; c < row_.size(); ++c) {
        if (profile_.columns[c]) out.set(*profile_.columns[c], row_[c]);
    }
    return out;
}

void ProfileBuilder::emit_functions() {
    if (options_.watch) {
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (!options_.watch(keys_[i].name)) continue;
            profile_.watched.push_back(FunctionCost{
                std::string(keys_[i].file), std::string(keys_[i].name), function_counts(i)});
        }
    }
    std::vector<std::size_t> order(keys_.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::size_t kept = order.size();
    if (options_.function_limit > 0 && options_.function_limit < order.size() &&
        options_.function_rank) {
        std::vector<std::uint64_t> rank(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            rank[i] = options_.function_rank(function_counts(i));
        kept = options_.function_limit;
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept),
                          order.end(), [&](std::size_t a, std::size_t b) {
                              if (rank[a] != rank[b]) return rank[a] > rank[b];
                              return keys_[a].file != keys_[b].file ? keys_[a].file < keys_[b].file
                                                                    : keys_[a].name < keys_[b].name;
                          });
    }
    profile_.functions.reserve(kept + (kept < order.size() ? 1 : 0));
    for (std::size_t i = 0; i < kept; ++i) {
        const FnKey& key = keys_[order[i]];
        profile_.functions.push_back(
            FunctionCost{std::string(key.file), std::string(key.name), function_counts(order[i])});
    }
    if (kept == order.size()) return;
    FunctionCost other{"", std::string(kOtherFunctions), {}};
    for (std::size_t i = kept; i < order.size(); ++i)
        other.counts.add(function_counts(order[i]));
    profile_.functions.push_back(std::move(other));
}

Profile ProfileBuilder::finish() {
    emit_lines();
    emit_functions();
    return std::move(profile_);
}

Profile parse_profile_file(const std::filesystem::path& path, const ParseOptions& options,
                           ProfileParser parse) {
    const util::MappedFile file(path);
    try {
        return parse(file.view(), options);
    } catch (const ParseError& e) {
        throw ParseError(e.line(), e.reason(), path.string());
    }
}

}  // namespace cgbench::valgrind
