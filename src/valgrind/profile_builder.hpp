#pragma once
// What the Cachegrind and Callgrind parsers share: the error type and the builder that turns
// an `events:` line and count lines into a Profile, keeping running sums (to check the file's
// own totals) and, when asked, per-function costs. Parsers own the syntax; the builder owns
// the numbers.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/errors.hpp"
#include "valgrind/line_scanner.hpp"
#include "valgrind/profile.hpp"

namespace cgbench::valgrind {

// A malformed profile. what() names the line; the exit code is that of bad input (2).
class ParseError : public UsageError {
  public:
    // `source` (a path) may be empty; the message reads "source:line: reason".
    ParseError(std::size_t line, std::string reason, std::string source = {});
    std::size_t line() const noexcept { return line_; }
    const std::string& reason() const noexcept { return reason_; }

  private:
    std::size_t line_;
    std::string reason_;
};

class ProfileBuilder {
  public:
    // `tool` is recorded in the profile ("cachegrind" or "callgrind").
    ProfileBuilder(std::string_view tool, const ParseOptions& options);

    // Throws ParseError for `line` (0: the file as a whole).
    [[noreturn]] static void fail(std::size_t line, const std::string& reason);

    // Declares the columns from the value of an `events:` line. Throws ParseError when none
    // are listed or events were declared before.
    void set_events(std::string_view value, std::size_t line);
    bool has_events() const { return !row_.empty(); }

    // Reads the counts in `rest` into the current row; missing trailing counts are zero.
    // Returns how many were given. Throws ParseError on malformed, overflowing or surplus
    // counts.
    std::size_t read_row(std::string_view rest, std::size_t line) {
        std::size_t n = 0;
        std::uint64_t v = 0;
        while (true) {
            const NumberStatus st = next_number(rest, v);
            if (st == NumberStatus::Ok) {
                if (n == row_.size()) surplus_counts(line);
                row_[n++] = v;
                continue;
            }
            if (st == NumberStatus::None) break;
            fail(line,
                 st == NumberStatus::Overflow ? "count overflows 64 bits" : "malformed count");
        }
        for (std::size_t i = n; i < row_.size(); ++i)
            row_[i] = 0;
        return n;
    }

    // Adds the current row to the running sums and to the selected function, if any.
    void add_row(std::size_t line) {
        for (std::size_t i = 0; i < row_.size(); ++i) {
            if (__builtin_add_overflow(sums_[i], row_[i], &sums_[i])) {
                fail(line, "the sum of counts overflows 64 bits");
            }
        }
        if (current_ != nullptr) {
            for (std::size_t i = 0; i < row_.size(); ++i)
                current_[i] += row_[i];
        }
    }

    // Later rows are added to function `name` of `file` (no-op unless functions are
    // collected). The views must stay valid until finish().
    void select_function(std::string_view file, std::string_view name);
    // The current row (read with read_row) as events.
    metrics::EventCounts row_counts() const;
    // Later rows belong to no function until the next select_function().
    void clear_function() {
        current_ = nullptr;
        current_index_ = kNoFunction;
    }

    // Adds the current row to source line `line` of the selected function as well (no-op
    // unless lines are collected, for line 0 and outside a function).
    void add_line(std::uint64_t line) {
        if (options_.collect_lines && current_index_ != kNoFunction && line != 0 &&
            line <= UINT32_MAX) {
            add_line_row(static_cast<std::uint32_t>(line));
        }
    }

    // Checks the current row (the file's own totals, read with read_row) against the sums of
    // the rows added and stores it as the profile's totals. `what` names the line in messages
    // ("summary", "totals"). Throws ParseError on a mismatch.
    void check_totals(std::string_view what, std::size_t line);

    Profile& profile() { return profile_; }
    // The finished profile, with its functions in order of first appearance.
    Profile finish();

  private:
    [[noreturn]] void surplus_counts(std::size_t line) const;

    struct FnKey {
        std::string_view file;
        std::string_view name;
        bool operator==(const FnKey&) const = default;
    };
    // Function `index`'s counts as events.
    metrics::EventCounts function_counts(std::size_t index) const;
    // Fills profile_.functions with every function, or the top function_limit and "(other)".
    void emit_functions();
    // Fills profile_.lines with every line, or the top line_limit.
    void emit_lines();
    void add_line_row(std::uint32_t line);

    static constexpr std::size_t kNoFunction = SIZE_MAX;

    // The index of (file, name) in keys_, added when new. An open-addressing table: a profile
    // of a large program names a few hundred thousand functions, and node-based maps spent
    // more time allocating than the rest of the parse.
    std::size_t function_index(std::string_view file, std::string_view name);
    void grow_slots();

    ParseOptions options_;
    Profile profile_;
    std::vector<std::uint64_t> sums_;
    std::vector<std::uint64_t> row_;
    std::uint64_t* current_ = nullptr;
    std::vector<FnKey> keys_;
    std::vector<std::uint64_t> key_hashes_;  // parallel to keys_
    std::vector<std::uint32_t> slots_;       // index into keys_ + 1; 0: empty
    std::string_view hashed_file_;           // the file whose hash is file_hash_
    std::uint64_t file_hash_ = 0;
    std::vector<std::uint64_t> accum_;  // keys_.size() rows of row_.size() counts
    std::size_t current_index_ = kNoFunction;
    // The lines: (function index << 32 | line) -> row in line_accum_ (row_.size() counts each).
    std::unordered_map<std::uint64_t, std::uint32_t> line_rows_;
    std::vector<std::uint64_t> line_keys_;
    std::vector<std::uint64_t> line_accum_;
};

// Parses one of the two formats (the parsers' shared shape); `data` may be anything.
using ProfileParser = Profile (*)(std::string_view data, const ParseOptions& options);

// Maps `path` and parses it with `parse`; ParseError messages then name the path.
// EnvironmentError when the file cannot be read.
Profile parse_profile_file(const std::filesystem::path& path, const ParseOptions& options,
                           ProfileParser parse);

}  // namespace cgbench::valgrind
