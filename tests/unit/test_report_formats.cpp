// The table of output formats: lookups and refusals as the commands see them, the help it
// writes, and the reference's "Output formats" tables and each command's --format row, which
// must say what the table says.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/errors.hpp"
#include "report/formats.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// The commands that take --format, with the model each renders.
const std::map<std::string, Model> kCommands = {{"run", Model::Run},
                                                {"merge", Model::Run},
                                                {"compare", Model::Compare},
                                                {"history", Model::History},
                                                {"steps", Model::Steps},
                                                {"bisect", Model::Bisect},
                                                {"backfill", Model::Backfill},
                                                {"annotate", Model::Functions},
                                                {"calibrate", Model::Calibration}};

std::set<std::string> supported(Model model) {
    std::set<std::string> out;
    for (const auto& f : output_formats()) {
        if (supports(f, model)) out.emplace(f.name);
    }
    return out;
}

// The formats that render `model` as messages list them, in the table's order: "a, b or c".
// Built here apart from format_names, and from the table, so a new format changes no test.
std::string listed(Model model) {
    std::vector<std::string> names;
    for (const auto& f : output_formats()) {
        if (supports(f, model)) names.emplace_back(f.name);
    }
    std::string out = names.front();
    for (std::size_t i = 1; i < names.size(); ++i)
        out += (i + 1 == names.size() ? " or " : ", ") + names[i];
    return out;
}

// The UsageError find_format throws, as "message (hint)"; empty when it throws none.
std::string refusal(std::string_view name, Model model, std::string_view command) {
    try {
        find_format(name, model, command);
    } catch (const UsageError& e) {
        return std::string(e.what()) + " (" + e.hint() + ")";
    }
    return {};
}

std::vector<std::string> reference_lines() {
    std::ifstream in(std::string(CGBENCH_SOURCE_DIR) + "/docs/reference/cgbench.md");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The lines of section "## TITLE" (up to the next "## ").
std::vector<std::string> section(const std::vector<std::string>& lines, std::string_view title) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& l : lines) {
        if (l.rfind("## ", 0) == 0)
            in = l.substr(3) == title;
        else if (in)
            out.push_back(l);
    }
    return out;
}

// The cells of a table row "| a | b |", trimmed; empty for a line that is no row.
std::vector<std::string> cells(std::string_view row) {
    if (row.empty() || row.front() != '|') return {};
    std::vector<std::string> out;
    for (const auto part : util::split(row.substr(1), '|')) {
        const auto a = part.find_first_not_of(' ');
        const auto b = part.find_last_not_of(' ');
        out.emplace_back(a == std::string_view::npos ? "" : part.substr(a, b - a + 1));
    }
    if (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}

// The `backticked` words of `text`.
std::vector<std::string> backticked(std::string_view text) {
    std::vector<std::string> out;
    for (std::size_t a = text.find('`'); a != std::string_view::npos;) {
        const std::size_t b = text.find('`', a + 1);
        if (b == std::string_view::npos) break;
        out.emplace_back(text.substr(a + 1, b - a - 1));
        a = text.find('`', b + 1);
    }
    return out;
}

// The table rows of `lines` (header and rule left out) whose first cell's header is `first`.
std::vector<std::vector<std::string>> table(const std::vector<std::string>& lines,
                                            std::string_view first) {
    std::vector<std::vector<std::string>> rows;
    bool in = false;
    for (const auto& l : lines) {
        const auto c = cells(l);
        if (c.empty()) {
            in = false;
        } else if (c[0] == first) {
            in = true;
        } else if (in && c[0].find("---") == std::string::npos) {
            rows.push_back(c);
        }
    }
    return rows;
}

}  // namespace

TEST(Formats, TheTableIsWellFormed) {
    std::set<std::string_view> names;
    for (const auto& f : output_formats()) {
        EXPECT_TRUE(names.insert(f.name).second) << "twice: " << f.name;
        EXPECT_FALSE(f.description.empty()) << f.name;
        EXPECT_EQ(f.description.find('\n'), std::string_view::npos) << f.name;
    }
    // The default renders everything, and every model has a format.
    for (const auto model : kModels) {
        EXPECT_TRUE(supports(output_formats().front(), model)) << to_string(model);
    }
    EXPECT_EQ(output_formats().front().name, "console");
    EXPECT_TRUE(output_formats().front().terminal);
}

TEST(Formats, FindTheFormatACommandWrites) {
    EXPECT_EQ(find_format("json", Model::Run, "run").name, "json");
    EXPECT_EQ(find_format("junit", Model::Compare, "compare").name, "junit");
    EXPECT_EQ(find_format("markdown", Model::Functions, "annotate").name, "markdown");
    EXPECT_NE(find_format("json", Model::Calibration, "calibrate").calibration, nullptr);
}

// Refused with one line that names what the command writes (cli prints "message (hint)").
TEST(Formats, RefusalsNameWhatTheCommandWrites) {
    EXPECT_EQ(format_names(Model::Compare), listed(Model::Compare));
    EXPECT_EQ(refusal("yaml", Model::Compare, "compare"),
              "unknown format 'yaml' (cgbench compare writes " + listed(Model::Compare) + ")");
    EXPECT_EQ(refusal("markdown", Model::History, "history"),
              "cgbench history cannot write markdown (it writes " + listed(Model::History) + ")");
    EXPECT_EQ(refusal("junit", Model::Functions, "annotate"),
              "cgbench annotate cannot write junit (it writes " + listed(Model::Functions) + ")");
    EXPECT_EQ(refusal("x\ny\033", Model::Steps, "steps"),
              "unknown format 'x\\x0ay\\x1b' (cgbench steps writes " + listed(Model::Steps) + ")");
    EXPECT_EQ(refusal("JSON", Model::Run, "run").rfind("unknown format 'JSON'", 0), 0u);
}

TEST(Formats, HelpComesFromTheTable) {
    for (const auto model : kModels) {
        EXPECT_EQ(format_option_help(model), "Output: " + listed(model) + " [console]");
    }
    const auto help = formats_help(Model::Functions);
    EXPECT_EQ(help.rfind("Formats (--format):\n", 0), 0u) << help;
    for (const auto& f : output_formats()) {
        const bool listed = help.find("  " + std::string(f.name) + " ") != std::string::npos &&
                            help.find(f.description) != std::string::npos;
        EXPECT_EQ(listed, supports(f, Model::Functions)) << f.name << "\n" << help;
    }
}

// The reference's two tables of "Output formats": every format with its description, and
// which command writes which.
TEST(Formats, TheReferenceTablesMatchTheTable) {
    const auto lines = section(reference_lines(), "Output formats");
    ASSERT_FALSE(lines.empty()) << "no section '## Output formats' in docs/reference/cgbench.md";
    std::map<std::string, std::string> documented;
    for (const auto& row : table(lines, "format")) {
        ASSERT_EQ(row.size(), 2u) << row[0];
        documented[row[0]] = row[1];
    }
    std::map<std::string, std::string> registered;
    for (const auto& f : output_formats())
        registered["`" + std::string(f.name) + "`"] = std::string(f.description);
    EXPECT_EQ(documented, registered);

    std::set<std::string> commands;
    for (const auto& row : table(lines, "command")) {
        ASSERT_EQ(row.size(), 2u) << row[0];
        const auto formats = backticked(row[1]);
        for (const auto& command : backticked(row[0])) {
            ASSERT_TRUE(kCommands.count(command)) << "no such command with --format: " << command;
            commands.insert(command);
            EXPECT_EQ(std::set<std::string>(formats.begin(), formats.end()),
                      supported(kCommands.at(command)))
                << command;
        }
    }
    EXPECT_EQ(commands.size(), kCommands.size()) << "a command is missing from the table";
}

// Each command's section lists the formats it writes in its --format row, and no others.
TEST(Formats, EachCommandsFormatRowMatchesTheTable) {
    const auto lines = reference_lines();
    std::set<std::string> all;
    for (const auto& f : output_formats())
        all.emplace(f.name);
    for (const auto& [command, model] : kCommands) {
        std::set<std::string> listed;
        bool found = false;
        for (const auto& row : table(section(lines, "cgbench " + command), "option")) {
            if (row[0] != "`--format F`") continue;
            found = true;
            for (const auto& word : backticked(row[1])) {
                if (all.count(word)) listed.insert(word);
            }
        }
        EXPECT_TRUE(found) << "no `--format F` row in the section of cgbench " << command;
        EXPECT_EQ(listed, supported(model)) << command;
    }
}

}  // namespace cgbench::report
