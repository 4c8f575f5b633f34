#pragma once
// Shell words without a shell: a command line given as one string (cgbench pr --command,
// the action's `command` input) split as a POSIX shell splits words, quotes and
// backslashes included, but nothing expanded or run. Whatever a shell would expand or
// interpret ($, `...`, globs, ;, |, &, redirections) is refused rather than passed on
// literally, so nobody gets other words than the ones they meant.

#include <string>
#include <string_view>
#include <vector>

namespace cgbench::util {

// The words of `line`. Throws UsageError naming `what` (e.g. "--command"), the character
// and the fix, for an unterminated quote, a trailing backslash, or shell syntax outside
// single quotes; and for a line without words.
std::vector<std::string> split_shell_words(std::string_view line, std::string_view what);

}  // namespace cgbench::util
