#include "valgrind/cachegrind_parser.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "valgrind/line_scanner.hpp"

namespace cgbench::valgrind {

namespace {

class CachegrindParser {
  public:
    CachegrindParser(std::string_view data, const ParseOptions& options)
        : scanner_(data),
          builder_("cachegrind", options),
          cmd_lines_(options.cmd_lines),
          last_events_(last_events_line(data)) {
        builder_.profile().has_lines = options.collect_functions && options.collect_lines;
    }

    Profile run() {
        std::string_view line;
        while (scanner_.next(line))
            handle(line);
        if (!builder_.has_events()) fail("no 'events:' line (empty or not a cachegrind.out file)");
        if (!saw_summary_) fail("no 'summary:' line (the file is truncated)");
        return builder_.finish();
    }

  private:
    [[noreturn]] static void fail(const std::string& reason) { ProfileBuilder::fail(0, reason); }
    std::size_t at() const { return scanner_.number(); }

    void handle(std::string_view line) {
        if (in_cmd_ && continues_cmd(line)) {
            builder_.profile().cmd += '\n';
            builder_.profile().cmd += line;
            return;
        }
        in_cmd_ = false;
        if (saw_summary_) {
            if (!util::trim(line).empty()) ProfileBuilder::fail(at(), "content after 'summary:'");
            return;
        }
        std::string_view value;
        if (!line.empty() && line.front() >= '0' && line.front() <= '9') {
            count_line(line);
        } else if (take_field(line, "fn=", value)) {
            need_events();
            builder_.select_function(file_, value);
        } else if (take_field(line, "fl=", value)) {
            need_events();
            file_ = value;
            builder_.clear_function();
        } else if (take_field(line, "summary:", value)) {
            summary_line(value);
        } else if (take_field(line, "events:", value)) {
            builder_.set_events(value, at());
        } else if (take_field(line, "desc:", value)) {
            builder_.profile().desc.emplace_back(value);
        } else if (take_field(line, "cmd:", value) && !builder_.has_events()) {
            builder_.profile().cmd = std::string(value);
            in_cmd_ = true;
            cmd_rest_ = cmd_lines_ > 0 ? cmd_lines_ - 1 : 0;
        } else if (!util::trim(line).empty()) {
            ProfileBuilder::fail(
                at(), fmt::format("unexpected line '{}'", util::printable(line.substr(0, 40))));
        }
    }

    // Where the last line starting with "events:" begins (npos: none). No line after the
    // real `events:` line starts so (counts, fl=, fn=, summary:), so when the number of the
    // command's lines is unknown, every line before that one continues the command, even one
    // an argument made look like "events: Ir".
    static std::size_t last_events_line(std::string_view data) {
        if (util::starts_with(data, "events:") &&
            data.find("\nevents:") == std::string_view::npos) {
            return 0;
        }
        const auto at = data.rfind("\nevents:");
        return at == std::string_view::npos ? std::string_view::npos : at + 1;
    }

    // Whether `line` is a continuation of the `cmd:` line (see ParseOptions::cmd_lines).
    bool continues_cmd(std::string_view line) {
        if (cmd_lines_ == 0) {
            return last_events_ == std::string_view::npos ? !util::starts_with(line, "events:")
                                                          : scanner_.offset() < last_events_;
        }
        if (cmd_rest_ == 0) return false;
        --cmd_rest_;
        return true;
    }

    void need_events() const {
        if (!builder_.has_events()) ProfileBuilder::fail(at(), "data before the 'events:' line");
    }

    void count_line(std::string_view line) {
        need_events();
        std::uint64_t line_no = 0;
        if (next_number(line, line_no) != NumberStatus::Ok) {
            ProfileBuilder::fail(at(), "malformed line number");
        }
        builder_.read_row(line, at());
        builder_.add_row(at());
        builder_.add_line(line_no);
    }

    void summary_line(std::string_view value) {
        need_events();
        const std::size_t given = builder_.read_row(value, at());
        const std::size_t declared = builder_.profile().columns.size();
        if (given != declared) {
            ProfileBuilder::fail(
                at(), fmt::format("summary has {} counts for {} events", given, declared));
        }
        builder_.check_totals("summary", at());
        saw_summary_ = true;
    }

    LineScanner scanner_;
    ProfileBuilder builder_;
    bool saw_summary_ = false;
    std::string_view file_;
    std::size_t cmd_lines_;
    bool in_cmd_ = false;
    std::size_t cmd_rest_ = 0;
    std::size_t last_events_;
};

}  // namespace

Profile parse_cachegrind(std::string_view data, const ParseOptions& options) {
    return CachegrindParser(data, options).run();
}

Profile parse_cachegrind_file(const std::filesystem::path& path, const ParseOptions& options) {
    return parse_profile_file(path, options, &parse_cachegrind);
}

}  // namespace cgbench::valgrind
