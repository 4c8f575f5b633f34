// md2man: writes a man page (roff, man macros) from the reference pages under docs/reference/,
// so the man pages and the Markdown a user reads on the web are one text. Run at build time:
//   md2man --name cgbench --section 1 --summary TEXT --version V [--see-also "git(1),..."]
//          --out cgbench.1 FIRST.md [MORE.md...]
//
// The Markdown it reads is the subset those pages use:
//   # Title          the first file's: dropped (NAME comes from --name/--summary); later files: .SH
//   ## Heading       the first file's: .SH; later files: .SS
//   ### Heading      .SS
//   paragraphs, "- " and "1. " lists (continuation lines indented), ``` code blocks,
//   tables (a row per .TP: the first cell is the tag, the others the text),
//   `code`, **bold**, *italic*, [text](link), <!-- comments --> (dropped).
// Everything else is text. Backslashes, a leading . or ', and every non-ASCII character are
// escaped, so no input can become a roff request.
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Args {
    std::string name, section, summary, version, out, see_also;
    std::vector<std::string> inputs;
};

// One code point of UTF-8 at s[i], advancing i; a byte that is not UTF-8 reads as U+FFFD.
unsigned decode_utf8(const std::string& s, std::size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    unsigned cp = extra == 3 ? c & 0x07u : extra == 2 ? c & 0x0Fu : c & 0x1Fu;
    if (extra == 0 || i + extra >= s.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k <= extra; ++k) {
        const auto d = static_cast<unsigned char>(s[i + k]);
        if ((d & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (d & 0x3Fu);
    }
    i += extra + 1;
    return cp;
}

// Plain text for roff: \ as \e, - as \-, every non-ASCII character as \[uXXXX].
std::string escape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c == '\\') out += "\\e";
            else if (c == '-') out += "\\-";
            else out += static_cast<char>(c);
            ++i;
            continue;
        }
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\[u%04X]", decode_utf8(s, i));
        out += buf;
    }
    return out;
}

// Markdown inline markup outside code spans: links become their text, **b** and *i* fonts.
std::string inline_text(const std::string& s) {
    static const std::regex bold(R"(\*\*([^*]+)\*\*)");
    static const std::regex italic(R"((^|[^\w*])\*([^*\s][^*]*[^*\s]|[^*\s])\*(?!\w))");
    std::string t = std::regex_replace(s, std::regex(R"(\\\|)"), "|");
    t = escape(t);
    t = std::regex_replace(t, bold, "\\fB$1\\fR");
    t = std::regex_replace(t, italic, "$1\\fI$2\\fR");
    return t;
}

// A line (or a paragraph joined by newlines) with `code` spans set in bold; a link becomes
// its text (which may hold code spans).
std::string inline_markup(const std::string& text) {
    static const std::regex link(R"(\[([^\]]*)\]\(([^)\s]*)\))");
    const std::string s = std::regex_replace(text, link, "$1");
    std::string out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const auto open = s.find('`', pos);
        const auto close = open == std::string::npos ? open : s.find('`', open + 1);
        if (close == std::string::npos) {
            out += inline_text(s.substr(pos));
            break;
        }
        out += inline_text(s.substr(pos, open - pos));
        std::string code = s.substr(open + 1, close - open - 1);
        code = std::regex_replace(code, std::regex(R"(\\\|)"), "|");
        out += "\\fB" + escape(code) + "\\fR";
        pos = close + 1;
    }
    return out;
}

// Lines of roff text: a line starting with . or ' would be a request, \& keeps it text.
void put_text(std::ostream& out, const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        line = line.substr(first);
        if (line[0] == '.' || line[0] == '\'') out << "\\&";
        out << line << '\n';
    }
}

std::vector<std::string> table_cells(const std::string& row) {
    std::string r = std::regex_replace(row, std::regex(R"(\\\|)"), "\x01");
    std::vector<std::string> cells;
    std::size_t pos = r.find('|') + 1;
    for (std::size_t next; (next = r.find('|', pos)) != std::string::npos; pos = next + 1) {
        std::string cell = r.substr(pos, next - pos);
        for (auto& ch : cell)
            if (ch == '\x01') ch = '|';
        const auto a = cell.find_first_not_of(' ');
        const auto b = cell.find_last_not_of(' ');
        cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
    }
    return cells;
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string upper(std::string s) {
    for (auto& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

// The page as sections: the text before the first heading (the DESCRIPTION), then one per
// .SH. Written out in man(7)'s order: NAME, SYNOPSIS (when there is one), DESCRIPTION, the rest.
class Converter {
public:
    void file(const std::vector<std::string>& lines, bool first) {
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string& l = lines[i];
            if (starts_with(l, "```")) i = code_block(lines, i);
            else if (starts_with(l, "<!--")) flush();
            else if (starts_with(l, "#")) heading(l, first);
            else if (starts_with(l, "|")) i = table(lines, i);
            else if (l.find_first_not_of(' ') == std::string::npos) flush();
            else if (starts_with(l, "- ") || std::regex_search(l, std::regex(R"(^\d+\. )"))) item(l);
            else para_ += l + '\n';
        }
        flush();
    }

    void write(std::ostream& page) const {
        std::size_t next = 0;
        if (!sections_.empty() && sections_[0].title == "SYNOPSIS") page << sections_[next++].text();
        if (!description_.str().empty()) page << ".SH DESCRIPTION\n" << description_.str();
        for (; next < sections_.size(); ++next) page << sections_[next].text();
    }

private:
    struct Section {
        std::string title;
        std::ostringstream body;
        std::string text() const { return ".SH \"" + title + "\"\n" + body.str(); }
    };

    std::ostream& out() { return sections_.empty() ? description_ : sections_.back().body; }

    void flush() {
        if (para_.empty()) return;
        if (!in_item_) out() << ".PP\n";
        put_text(out(), inline_markup(para_));
        para_.clear();
        in_item_ = false;
    }

    void heading(const std::string& l, bool first) {
        flush();
        const auto level = l.find_first_not_of('#');
        const std::string text = inline_markup(l.substr(level + 1));
        if (level == 1 && first) return;  // the title: NAME says it
        if (first ? level == 2 : level == 1) sections_.push_back(Section{upper(text), {}});
        else out() << ".SS \"" << text << "\"\n";
    }

    void item(const std::string& l) {
        flush();
        std::smatch m;
        if (std::regex_search(l, m, std::regex(R"(^(\d+\.) )"))) {
            out() << ".IP " << m[1] << " 4\n";
            para_ = l.substr(m[0].length()) + '\n';
        } else {
            out() << ".IP \\(bu 2\n";
            para_ = l.substr(2) + '\n';
        }
        in_item_ = true;
    }

    std::size_t code_block(const std::vector<std::string>& lines, std::size_t i) {
        flush();
        out() << ".PP\n.RS 4\n.nf\n";
        for (++i; i < lines.size() && !starts_with(lines[i], "```"); ++i) {
            const std::string line = escape(lines[i]);
            if (!line.empty() && (line[0] == '.' || line[0] == '\'')) out() << "\\&";
            out() << line << '\n';
        }
        out() << ".fi\n.RE\n";
        return i;
    }

    // Each row a .TP: the first cell the tag; with more than two columns, the middle ones as
    // "HEADER: value" lines, then the last one.
    std::size_t table(const std::vector<std::string>& lines, std::size_t i) {
        flush();
        const auto header = table_cells(lines[i]);
        if (i + 1 < lines.size() && std::regex_search(lines[i + 1], std::regex(R"(^\|[-:| ]+\|\s*$)"))) ++i;
        for (++i; i < lines.size() && starts_with(lines[i], "|"); ++i) {
            const auto cells = table_cells(lines[i]);
            if (cells.empty()) continue;
            out() << ".TP\n";
            put_text(out(), inline_markup(cells[0].empty() ? "-" : cells[0]));
            for (std::size_t c = 1; c < cells.size(); ++c) {
                if (c > 1) out() << ".br\n";
                std::string text = cells[c];
                if (c + 1 < cells.size() && c < header.size() && !header[c].empty()) text = "*" + header[c] + "*: " + text;
                put_text(out(), inline_markup(text.empty() ? "-" : text));
            }
        }
        return i - 1;
    }

    std::ostringstream description_;
    std::deque<Section> sections_;
    std::string para_;
    bool in_item_ = false;
};

bool parse_args(int argc, char** argv, Args& a) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string* field = arg == "--name" ? &a.name : arg == "--section" ? &a.section
                           : arg == "--summary" ? &a.summary : arg == "--version" ? &a.version
                           : arg == "--out" ? &a.out : arg == "--see-also" ? &a.see_also : nullptr;
        if (field && i + 1 < argc) *field = argv[++i];
        else if (!field && !starts_with(arg, "--")) a.inputs.push_back(arg);
        else return false;
    }
    return !a.name.empty() && !a.section.empty() && !a.out.empty() && !a.inputs.empty();
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    if (!parse_args(argc, argv, a)) {
        std::cerr << "usage: md2man --name N --section S --summary TEXT --version V [--see-also LIST] --out FILE IN.md...\n";
        return 2;
    }
    std::ostringstream page;
    page << ".TH \"" << upper(a.name) << "\" \"" << a.section << "\" \"\" \"cgbench " << escape(a.version)
         << "\" \"cgbench\"\n.SH NAME\n" << escape(a.name) << " \\- " << escape(a.summary) << '\n';
    Converter conv;
    for (std::size_t f = 0; f < a.inputs.size(); ++f) {
        std::ifstream in(a.inputs[f]);
        if (!in) {
            std::cerr << "md2man: cannot read " << a.inputs[f] << '\n';
            return 1;
        }
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        conv.file(lines, f == 0);
    }
    conv.write(page);
    // SEE ALSO from "page(1),page(5)": one .BR per page, commas between.
    if (!a.see_also.empty()) {
        page << ".SH \"SEE ALSO\"\n";
        std::smatch m;
        std::string rest = a.see_also;
        const std::regex ref(R"(\s*([^,(]+)\(([0-9a-z]+)\)\s*(,?))");
        while (std::regex_search(rest, m, ref)) {
            page << ".BR " << escape(m[1]) << " (" << m[2] << ")" << (m[3].length() ? "," : "") << '\n';
            rest = m.suffix();
        }
    }
    std::ofstream out(a.out, std::ios::binary);
    out << page.str();
    if (!out.flush()) {
        std::cerr << "md2man: cannot write " << a.out << '\n';
        return 1;
    }
    return 0;
}
