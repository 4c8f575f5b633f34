#pragma once
// A regular expression (ECMAScript syntax, as std::regex) behind a small interface, so that
// <regex> is compiled in one file only: GCC 12 reports false -Wmaybe-uninitialized warnings
// inside <regex> in sanitizer builds, and they are silenced there alone.

#include <memory>
#include <string>

namespace cgbench::util {

class Regex {
  public:
    // Compiles `pattern`; throws std::invalid_argument carrying the reason when it is invalid.
    explicit Regex(const std::string& pattern);
    ~Regex();
    Regex(Regex&&) noexcept;
    Regex& operator=(Regex&&) noexcept;

    // True when the expression matches somewhere in `text` (a search, not a full match).
    bool search(const std::string& text) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cgbench::util
