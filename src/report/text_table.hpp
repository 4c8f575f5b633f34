#pragma once
// Aligned plain-text tables for the console reporters.

#include <string>
#include <string_view>
#include <vector>

namespace cgbench::report {

enum class Align { Left, Right };

class TextTable {
  public:
    explicit TextTable(std::vector<std::pair<std::string, Align>> columns);
    void add_row(std::vector<std::string> cells);
    // Rows with a header line; `indent` spaces before each line; two spaces between columns.
    // `bold_header` wraps the header in ANSI bold.
    std::string render(std::size_t indent = 0, bool bold_header = false) const;

  private:
    std::vector<std::pair<std::string, Align>> columns_;
    std::vector<std::vector<std::string>> rows_;
};

// `text` in the ANSI style `code` ("31;1": bold red) when `color`, else unchanged.
std::string ansi(bool color, std::string_view code, std::string_view text);

// Display width of UTF-8 text (code points; wide characters are rare in names).
std::size_t display_width(const std::string& text);

}  // namespace cgbench::report
