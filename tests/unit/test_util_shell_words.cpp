// util::split_shell_words: shell words without a shell (cgbench pr --command).

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "util/shell_words.hpp"

namespace cgbench::util {

namespace {

std::vector<std::string> words(std::string_view line) {
    return split_shell_words(line, "--command");
}

std::string refusal(std::string_view line) {
    try {
        words(line);
    } catch (const UsageError& e) {
        return std::string(e.what()) + " | " + e.hint();
    }
    return "";
}

}  // namespace

TEST(ShellWords, SplitAsAShellWould) {
    using V = std::vector<std::string>;
    EXPECT_EQ(words("prog 1000"), (V{"prog", "1000"}));
    EXPECT_EQ(words("  prog\t 'a b'  \"c d\" e\\ f\n"), (V{"prog", "a b", "c d", "e f"}));
    EXPECT_EQ(words("prog ''"), (V{"prog", ""}));
    EXPECT_EQ(words("prog 'it'\\''s' \"say \\\"hi\\\"\""), (V{"prog", "it's", "say \"hi\""}));
    EXPECT_EQ(words("prog 'a$b `c` ; | & < > ( ) * ? ['"),
              (V{"prog", "a$b `c` ; | & < > ( ) * ? ["}));
    EXPECT_EQ(words("prog \\$HOME"), (V{"prog", "$HOME"})) << "an escaped $ is a $";
    EXPECT_EQ(words("prog a=b --x=1,2 ~/f #x"), (V{"prog", "a=b", "--x=1,2", "~/f", "#x"}));
}

TEST(ShellWords, RefusesWhatAShellWouldExpandOrRun) {
    for (const auto* line :
         {"prog $(touch x)", "prog `id`", "prog $HOME", "prog ${x}", "prog; rm x", "prog | tee",
          "prog & x", "prog > out", "prog < in", "(prog)", "prog *.c", "prog ?", "prog [ab]"}) {
        const auto why = refusal(line);
        EXPECT_NE(why.find("--command '"), std::string::npos) << line << ": " << why;
        EXPECT_NE(why.find("a shell would interpret"), std::string::npos) << line << ": " << why;
        EXPECT_NE(why.find("cgbench runs no shell"), std::string::npos) << why;
    }
    EXPECT_NE(refusal("prog \"$HOME\"").find("a shell would expand '$' inside \"...\""),
              std::string::npos);
    EXPECT_NE(refusal("prog \"`id`\"").find("a shell would expand '`'"), std::string::npos);
}

TEST(ShellWords, RefusesAnUnfinishedLine) {
    EXPECT_NE(refusal("prog 'open").find("a ' quote is not closed"), std::string::npos);
    EXPECT_NE(refusal("prog \"open").find("a \" quote is not closed"), std::string::npos);
    EXPECT_NE(refusal("prog \\").find("it ends with a backslash"), std::string::npos);
    EXPECT_NE(refusal("   ").find("there is no command in it"), std::string::npos);
    EXPECT_NE(refusal("\x1b[2J").find("\\x1b"), std::string::npos) << "control characters escaped";
}

}  // namespace cgbench::util
