// --format on every command that takes it, from the table of formats: an unknown format and
// every format the command does not write are refused with exit 2 and one line naming the
// formats it writes, before anything is read, measured or created; --help lists them.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

#include "e2e/harness.hpp"
#include "report/formats.hpp"

namespace cgbench::e2e {

namespace {

using report::Model;

// Each command with arguments that would otherwise do work (measure, open the database,
// resolve refs), and the model it renders. DB and FILE are replaced per case.
const std::map<std::string, std::pair<Model, std::vector<std::string>>> kCommands = {
    {"run", {Model::Run, {"--db", "DB", "--", "PROGRAM"}}},
    {"merge", {Model::Run, {"--db", "DB", "FILE"}}},
    {"compare", {Model::Compare, {"--db", "DB", "HEAD~1", "HEAD"}}},
    {"history", {Model::History, {"--db", "DB"}}},
    {"steps", {Model::Steps, {"--db", "DB"}}},
    {"bisect", {Model::Bisect, {"--db", "DB", "HEAD~1", "HEAD", "--build", "true"}}},
    {"backfill", {Model::Backfill, {"--db", "DB", "HEAD~1..HEAD", "--build", "true"}}},
    {"annotate", {Model::Functions, {"--db", "DB", "HEAD", "name"}}},
    {"calibrate", {Model::Calibration, {"--steps", "1000000", "--rounds", "1"}}},
};

// Runs `cgbench COMMAND --format FORMAT ARGS` in a fresh directory and checks the refusal.
void expect_refused(const std::string& command, const std::string& format,
                    const std::string& expected) {
    const auto& [model, args] = kCommands.at(command);
    const auto dir = scratch("formats-" + command + "-" + format);
    const auto db = dir / "history.db";
    const auto file = dir / "shard.json";
    std::ofstream(file) << "{}";
    std::vector<std::string> all = {command, "--format", format};
    for (const auto& a : args)
        all.push_back(a == "DB"        ? db.string()
                      : a == "FILE"    ? file.string()
                      : a == "PROGRAM" ? program("workload")
                                       : a);
    const auto r = cgbench(all, {.cwd = dir.string()});
    const std::string what = command + " --format " + format;
    EXPECT_EQ(r.exit_code, 2) << what << ": " << r.err;
    EXPECT_EQ(r.err, "cgbench: error: " + expected + "\n") << what;
    EXPECT_EQ(r.out, "") << what;
    EXPECT_FALSE(fs::exists(db)) << what << ": the database was created";
}

}  // namespace

TEST(FormatsE2E, EveryCommandRefusesWhatItCannotWrite) {
    for (const auto& [command, entry] : kCommands) {
        const auto writes = report::format_names(entry.first);
        expect_refused(command, "yaml",
                       "unknown format 'yaml' (cgbench " + command + " writes " + writes + ")");
        for (const auto& f : report::output_formats()) {
            if (report::supports(f, entry.first)) continue;
            const std::string name(f.name);
            expect_refused(
                command, name,
                "cgbench " + command + " cannot write " + name + " (it writes " + writes + ")");
        }
    }
}

TEST(FormatsE2E, TheEnvironmentNamesItselfWhenItChoseABadFormat) {
    const auto dir = scratch("formats-env");
    const auto r = cgbench({"run", "--db", (dir / "h.db").string(), "--", program("workload")},
                           {.env = {{"CGBENCH_FORMAT", "xml"}}});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("unknown format 'xml' (from CGBENCH_FORMAT)"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "h.db"));
}

namespace {

// `text` without the spaces that end its lines (CLI11 2.6 pads every line of --help with one).
std::string help_without_trailing_spaces(const std::string& text) {
    return std::regex_replace(text, std::regex(" +\n"), "\n");
}

}  // namespace

TEST(FormatsE2E, HelpListsWhatEachCommandWrites) {
    for (const auto& [command, entry] : kCommands) {
        const auto help = help_without_trailing_spaces(cgbench({command, "--help"}).out);
        EXPECT_NE(help.find(report::format_option_help(entry.first)), std::string::npos)
            << command << "\n"
            << help;
        EXPECT_NE(help.find(report::formats_help(entry.first)), std::string::npos)
            << command << "\n"
            << help;
    }
}

}  // namespace cgbench::e2e
