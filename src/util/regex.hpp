#pragma once
// A regular expression for --filter, behind a small interface. RE2 (Google's engine, the
// syntax of Go and of Google Benchmark's --benchmark_filter): matching takes time linear in
// the text, and nothing recurses, so no pattern and no name can overflow the stack (std::regex
// crashed on `^(a|b)*$` over a name of 20,000 characters). No backreferences or lookaround.

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
