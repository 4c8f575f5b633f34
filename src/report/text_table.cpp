#include "report/text_table.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cgbench::report {

std::string ansi(bool color, std::string_view code, std::string_view text) {
    if (!color) return std::string(text);
    return fmt::format("\033[{}m{}\033[0m", code, text);
}

std::size_t display_width(const std::string& text) {
    std::size_t n = 0;
    for (const char c : text) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    }
    return n;
}

TextTable::TextTable(std::vector<std::pair<std::string, Align>> columns)
    : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(columns_.size());
    rows_.push_back(std::move(cells));
}

std::string TextTable::render(std::size_t indent, bool bold_header) const {
    std::vector<std::size_t> width(columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        width[c] = display_width(columns_[c].first);
        for (const auto& row : rows_)
            width[c] = std::max(width[c], display_width(row[c]));
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string out(indent, ' ');
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = width[c] - display_width(cells[c]);
            const bool last = c + 1 == cells.size();
            if (columns_[c].second == Align::Right) out.append(pad, ' ');
            out += cells[c];
            if (columns_[c].second == Align::Left && !last) out.append(pad, ' ');
            if (!last) out += "  ";
        }
        while (out.size() > indent && out.back() == ' ') out.pop_back();  // an empty last cell
        return out + "\n";
    };
    std::vector<std::string> header;
    for (const auto& [title, align] : columns_)
        header.push_back(title);
    std::string out = line(header);
    if (bold_header) {
        const std::size_t nl = out.size() - 1;
        out = std::string(indent, ' ') + "\033[1m" + out.substr(indent, nl - indent) + "\033[0m\n";
    }
    for (const auto& row : rows_)
        out += line(row);
    return out;
}

}  // namespace cgbench::report
