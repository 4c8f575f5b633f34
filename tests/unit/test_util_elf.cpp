// The compilers recorded from an ELF file's .comment section, checked against readelf's
// reading of the same file (binutils: an independent parser).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "exec/program.hpp"
#include "util/elf.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::util {

namespace fs = std::filesystem;

namespace {

const fs::path kProgram = fs::path(CGBENCH_TEST_PROGRAMS) / "workload";

// What `readelf -p .comment FILE` prints, one string per "[ offset]  text" line.
std::vector<std::string> readelf_comment(const fs::path& file) {
    const auto env = exec::current_environment();
    const auto readelf = exec::search_path("readelf", env.count("PATH") ? env.at("PATH") : "");
    if (readelf.empty()) return {};
    exec::ProcessSpec spec;
    spec.argv = {readelf.string(), "-p", ".comment", file.string()};
    spec.disable_aslr = false;
    exec::PosixProcessRunner runner;
    const auto out = runner.run(spec);
    std::vector<std::string> strings;
    for (const auto line : split(out.stdout_tail, '\n')) {
        const auto close = line.find(']');
        if (trim(line).rfind('[', 0) != 0 || close == std::string_view::npos) continue;
        strings.emplace_back(trim(line.substr(close + 1)));
    }
    return strings;
}

fs::path scratch_copy(const std::string& name, std::string_view bytes) {
    const auto path = fs::path(::testing::TempDir()) / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

TEST(ElfComment, AsReadelfReadsIt) {
    const auto expected = readelf_comment(kProgram);
    if (expected.empty()) GTEST_SKIP() << "readelf (binutils) is not installed";
    const auto strings = elf_comment_strings(kProgram);
    EXPECT_EQ(strings, expected);
    ASSERT_FALSE(strings.empty());
    EXPECT_EQ(strings.front().rfind("GCC: ", 0), 0u) << "built by the test suite's gcc";
}

TEST(ElfComment, NotElfOrDamaged) {
    EXPECT_TRUE(elf_comment_strings(fs::path("/nonexistent/prog")).empty());
    EXPECT_TRUE(elf_comment_strings(scratch_copy("script.sh", "#!/bin/sh\necho hi\n")).empty());
    const auto bytes = read_file(kProgram);
    // Cut short: the section headers are past the end.
    EXPECT_TRUE(elf_comment_strings(std::string_view(bytes).substr(0, 4096)).empty());
    // Section header table offset pointing far away.
    auto broken = bytes;
    for (int i = 0; i < 8; ++i)
        broken[0x28 + i] = '\xff';
    EXPECT_TRUE(elf_comment_strings(std::string_view(broken)).empty());
    // The name table index out of range.
    broken = bytes;
    broken[0x3e] = '\xff';
    broken[0x3f] = '\x7f';
    EXPECT_TRUE(elf_comment_strings(std::string_view(broken)).empty());
}

}  // namespace cgbench::util
