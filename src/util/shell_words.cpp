#include "util/shell_words.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::util {

namespace {

// Characters a shell interprets outside quotes (expansions, globs, control operators,
// redirections, subshells).
constexpr std::string_view kUnquotedSyntax = "$`;|&<>()*?[";
// Inside double quotes a shell still expands these.
constexpr std::string_view kDoubleQuotedSyntax = "$`";

[[noreturn]] void refuse(std::string_view line, std::string_view what, std::string_view why) {
    throw UsageError(fmt::format("{} '{}': {}", what, printable(line), why),
                     "cgbench runs no shell: quote the character ('...'), or measure a script "
                     "that does what the shell would");
}

class Splitter {
  public:
    Splitter(std::string_view line, std::string_view what) : line_(line), what_(what) {}

    std::vector<std::string> run() {
        for (at_ = 0; at_ < line_.size(); ++at_) {
            const char c = line_[at_];
            if (c == ' ' || c == '\t' || c == '\n') {
                end_word();
            } else if (c == '\'') {
                single_quoted();
            } else if (c == '"') {
                double_quoted();
            } else if (c == '\\') {
                word_ += escaped();
            } else if (kUnquotedSyntax.find(c) != std::string_view::npos) {
                refuse(line_, what_, fmt::format("a shell would interpret '{}' here", c));
            } else {
                in_word_ = true;
                word_ += c;
            }
        }
        end_word();
        if (words_.empty()) refuse(line_, what_, "there is no command in it");
        return std::move(words_);
    }

  private:
    void end_word() {
        if (in_word_) words_.push_back(std::move(word_));
        word_.clear();
        in_word_ = false;
    }

    char escaped() {
        if (++at_ >= line_.size()) refuse(line_, what_, "it ends with a backslash");
        in_word_ = true;
        return line_[at_];
    }

    void single_quoted() {
        const auto close = line_.find('\'', at_ + 1);
        if (close == std::string_view::npos) refuse(line_, what_, "a ' quote is not closed");
        word_ += line_.substr(at_ + 1, close - at_ - 1);
        in_word_ = true;
        at_ = close;
    }

    void double_quoted() {
        in_word_ = true;
        for (++at_; at_ < line_.size(); ++at_) {
            const char c = line_[at_];
            if (c == '"') return;
            if (c == '\\' && at_ + 1 < line_.size() &&
                std::string_view("\"\\$`").find(line_[at_ + 1]) != std::string_view::npos) {
                word_ += line_[++at_];
            } else if (kDoubleQuotedSyntax.find(c) != std::string_view::npos) {
                refuse(line_, what_, fmt::format("a shell would expand '{}' inside \"...\"", c));
            } else {
                word_ += c;
            }
        }
        refuse(line_, what_, "a \" quote is not closed");
    }

    std::string_view line_;
    std::string_view what_;
    std::size_t at_ = 0;
    std::string word_;
    bool in_word_ = false;
    std::vector<std::string> words_;
};

}  // namespace

std::vector<std::string> split_shell_words(std::string_view line, std::string_view what) {
    return Splitter(line, what).run();
}

}  // namespace cgbench::util
