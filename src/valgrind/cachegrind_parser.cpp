#include "valgrind/cachegrind_parser.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "util/strings.hpp"
#include "valgrind/line_scanner.hpp"

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

namespace {

struct FnKey {
    std::string_view file;
    std::string_view name;
    bool operator==(const FnKey&) const = default;
};
struct FnKeyHash {
    std::size_t operator()(const FnKey& k) const {
        const std::size_t a = std::hash<std::string_view>{}(k.file);
        return a ^ (std::hash<std::string_view>{}(k.name) + 0x9e3779b97f4a7c15ULL + (a << 6));
    }
};

class CachegrindParser {
public:
    CachegrindParser(std::string_view data, const ParseOptions& options)
        : scanner_(data), options_(options) {
        profile_.tool = "cachegrind";
    }

    Profile run() {
        std::string_view line;
        while (scanner_.next(line)) handle(line);
        if (!saw_events_) fail(0, "no 'events:' line (empty or not a cachegrind.out file)");
        if (!saw_summary_) fail(0, "no 'summary:' line (the file is truncated)");
        finish_functions();
        return std::move(profile_);
    }

private:
    [[noreturn]] void fail(std::size_t line, const std::string& reason) const {
        throw ParseError(line, reason);
    }

    void handle(std::string_view line) {
        if (saw_summary_) {
            if (!util::trim(line).empty()) fail(scanner_.number(), "content after 'summary:'");
            return;
        }
        std::string_view value;
        if (!line.empty() && line.front() >= '0' && line.front() <= '9') {
            count_line(line);
        } else if (take_field(line, "fl=", value)) {
            need_events();
            file_ = value;
            current_ = nullptr;
        } else if (take_field(line, "fn=", value)) {
            need_events();
            select_function(value);
        } else if (take_field(line, "summary:", value)) {
            summary_line(value);
        } else if (take_field(line, "events:", value)) {
            events_line(value);
        } else if (take_field(line, "desc:", value)) {
            profile_.desc.emplace_back(value);
        } else if (take_field(line, "cmd:", value)) {
            profile_.cmd = std::string(value);
        } else if (!util::trim(line).empty()) {
            fail(scanner_.number(),
                 fmt::format("unexpected line '{}'", util::printable(line.substr(0, 40))));
        }
    }

    void need_events() const {
        if (!saw_events_) fail(scanner_.number(), "data before the 'events:' line");
    }

    void events_line(std::string_view value) {
        if (saw_events_) fail(scanner_.number(), "a second 'events:' line");
        for (const auto field : util::split(util::trim(value), ' ')) {
            if (field.empty()) continue;
            profile_.column_names.emplace_back(field);
            profile_.columns.push_back(metrics::event_from_name(field));
        }
        if (profile_.columns.empty()) fail(scanner_.number(), "'events:' lists no events");
        sums_.assign(profile_.columns.size(), 0);
        row_.assign(profile_.columns.size(), 0);
        saw_events_ = true;
    }

    // Reads up to `row_.size()` counts after the leading line number into row_; returns how
    // many were present (missing trailing counts are zero, as in Cachegrind's format).
    std::size_t read_counts(std::string_view rest, bool is_summary) {
        std::size_t n = 0;
        std::uint64_t v = 0;
        while (true) {
            const NumberStatus st = next_number(rest, v);
            if (st == NumberStatus::None) break;
            if (st == NumberStatus::Overflow) fail(scanner_.number(), "count overflows 64 bits");
            if (st == NumberStatus::Junk) fail(scanner_.number(), "malformed count");
            if (n == row_.size()) {
                fail(scanner_.number(), fmt::format("more counts than the {} events declared",
                                                    row_.size()));
            }
            row_[n++] = v;
        }
        if (is_summary && n != row_.size()) {
            fail(scanner_.number(),
                 fmt::format("summary has {} counts for {} events", n, row_.size()));
        }
        for (std::size_t i = n; i < row_.size(); ++i) row_[i] = 0;
        return n;
    }

    void count_line(std::string_view line) {
        need_events();
        std::uint64_t line_no = 0;
        if (next_number(line, line_no) != NumberStatus::Ok) {
            fail(scanner_.number(), "malformed line number");
        }
        read_counts(line, false);
        for (std::size_t i = 0; i < row_.size(); ++i) {
            if (__builtin_add_overflow(sums_[i], row_[i], &sums_[i])) {
                fail(scanner_.number(), "the sum of counts overflows 64 bits");
            }
        }
        if (current_ != nullptr) {
            for (std::size_t i = 0; i < row_.size(); ++i) (*current_)[i] += row_[i];
        }
    }

    void summary_line(std::string_view value) {
        need_events();
        read_counts(value, true);
        for (std::size_t i = 0; i < row_.size(); ++i) {
            if (row_[i] != sums_[i]) {
                fail(scanner_.number(),
                     fmt::format("summary says {} {} but the lines add up to {}",
                                 profile_.column_names[i], row_[i], sums_[i]));
            }
            if (profile_.columns[i]) profile_.totals.set(*profile_.columns[i], row_[i]);
        }
        saw_summary_ = true;
    }

    void select_function(std::string_view name) {
        if (!options_.collect_functions) return;
        auto [it, inserted] = index_.try_emplace(FnKey{file_, name}, accum_.size());
        if (inserted) {
            accum_.emplace_back(profile_.columns.size(), 0);
            keys_.push_back(FnKey{file_, name});
        }
        current_ = &accum_[it->second];
    }

    void finish_functions() {
        profile_.functions.reserve(accum_.size());
        for (std::size_t i = 0; i < accum_.size(); ++i) {
            profile_.functions.push_back(FunctionCost{std::string(keys_[i].file),
                                                      std::string(keys_[i].name),
                                                      std::move(accum_[i])});
        }
    }

    LineScanner scanner_;
    ParseOptions options_;
    Profile profile_;
    bool saw_events_ = false;
    bool saw_summary_ = false;
    std::vector<std::uint64_t> sums_;
    std::vector<std::uint64_t> row_;
    std::string_view file_;
    std::vector<std::uint64_t>* current_ = nullptr;
    std::unordered_map<FnKey, std::size_t, FnKeyHash> index_;
    std::vector<std::vector<std::uint64_t>> accum_;
    std::vector<FnKey> keys_;
};

// A read-only memory mapping of a whole file, unmapped on destruction.
class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            const int err = errno;
            throw EnvironmentError(fmt::format("cannot read {}: {}", path.string(),
                                               std::strerror(err)));
        }
        struct stat st {};
        if (::fstat(fd, &st) == 0 && st.st_size > 0) {
            size_ = static_cast<std::size_t>(st.st_size);
            void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
            addr_ = p == MAP_FAILED ? nullptr : p;
        }
        ::close(fd);
        if (size_ > 0 && addr_ == nullptr) {
            throw EnvironmentError(fmt::format("cannot map {}", path.string()));
        }
    }
    ~MappedFile() {
        if (addr_ != nullptr) ::munmap(addr_, size_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    std::string_view view() const {
        return addr_ ? std::string_view(static_cast<const char*>(addr_), size_)
                     : std::string_view();
    }

private:
    void* addr_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace

Profile parse_cachegrind(std::string_view data, const ParseOptions& options) {
    return CachegrindParser(data, options).run();
}

Profile parse_cachegrind_file(const std::filesystem::path& path, const ParseOptions& options) {
    const MappedFile file(path);
    try {
        return parse_cachegrind(file.view(), options);
    } catch (const ParseError& e) {
        throw ParseError(e.line(), e.reason(), path.string());
    }
}

}  // namespace cgbench::valgrind
