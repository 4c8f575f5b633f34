#include "valgrind/profile_builder.hpp"

#include <fmt/format.h>

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
            if (known == field) fail(line, fmt::format("'events:' lists {} twice", util::printable(field)));
        }
        profile_.column_names.emplace_back(field);
        profile_.columns.push_back(metrics::event_from_name(field));
    }
    if (profile_.columns.empty()) fail(line, "'events:' lists no events");
    sums_.assign(profile_.columns.size(), 0);
    row_.assign(profile_.columns.size(), 0);
}

std::size_t ProfileBuilder::FnKeyHash::operator()(const FnKey& k) const {
    const std::size_t a = std::hash<std::string_view>{}(k.file);
    return a ^ (std::hash<std::string_view>{}(k.name) + 0x9e3779b97f4a7c15ULL + (a << 6));
}

void ProfileBuilder::select_function(std::string_view file, std::string_view name) {
    if (!options_.collect_functions) return;
    const auto [it, inserted] = index_.try_emplace(FnKey{file, name}, keys_.size());
    if (inserted) {
        keys_.push_back(FnKey{file, name});
        accum_.resize(accum_.size() + row_.size(), 0);
    }
    current_ = accum_.data() + it->second * row_.size();
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

Profile ProfileBuilder::finish() {
    const std::size_t width = row_.size();
    profile_.functions.reserve(keys_.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        const auto* counts = accum_.data() + i * width;
        profile_.functions.push_back(FunctionCost{std::string(keys_[i].file),
                                                  std::string(keys_[i].name),
                                                  std::vector<std::uint64_t>(counts, counts + width)});
    }
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
