// Hardening, reports others read (reliability audit 2, J01, J03, Q04): benchmark names in a PR
// comment mention nobody, link nowhere and cannot display as other text; the Markdown report
// stays under a comment's size limit whatever the names and counts; the HTML report shows
// bidirectional controls as U+FFFD.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "exec/process.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::e2e {

namespace {

using json = nlohmann::json;

// A measured result (Ir only) whose one benchmark becomes one per name in `names`, each with
// Ir (and cost) `ir`.
json with_names(const fs::path& dir, const std::vector<std::string>& names, std::uint64_t ir,
                const std::string& id) {
    const auto out = dir / "measured.json";
    auto doc = fs::exists(out) ? read_json(out) : measured_ir(dir);
    const auto bench = doc["benchmarks"][0];
    doc["run"]["id"] = id;
    doc["benchmarks"] = json::array();
    for (const auto& n : names) {
        auto b = bench;
        b["name"] = n;
        b["events"]["Ir"] = ir;
        b["cost"] = ir;
        doc["benchmarks"].push_back(b);
    }
    return doc;
}

fs::path write(const fs::path& path, const json& doc) {
    std::ofstream(path) << doc.dump();
    return path;
}

const std::string kBidi = "\u202e";

}  // namespace

TEST(Hardening, J01_NamesInAPullRequestCommentMentionNobodyAndLinkNowhere) {
    const auto dir = scratch("hardening-j01");
    const std::vector<std::string> names = {
        "@octocat please look",  "@org/security-team",       "http://evil.example/login",
        "www.evil.example",      "ftp://files.evil.example", "see #123 and !45",
        "a" + kBidi + "exe.gnp", "mail someone@evil.example"};
    const auto base = write(dir / "base.json", with_names(dir, names, 100000, "base"));
    const auto head = write(dir / "head.json", with_names(dir, names, 120000, "head"));
    const auto r =
        cgbench({"compare", "--no-db", "--format", "markdown", base.string(), head.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto& md = r.out;
    EXPECT_FALSE(std::regex_search(md, std::regex("@[A-Za-z0-9]"))) << "a mention: " << md;
    EXPECT_EQ(md.find("://"), std::string::npos) << "a link: " << md;
    EXPECT_EQ(md.find("www."), std::string::npos) << "a link: " << md;
    EXPECT_FALSE(std::regex_search(md, std::regex("[#!][0-9]"))) << "a reference: " << md;
    EXPECT_EQ(md.find(kBidi), std::string::npos) << "a bidirectional control";
    // Still readable: the characters are there, with an invisible joiner.
    EXPECT_NE(md.find("@\u2060octocat please look"), std::string::npos) << md;
    EXPECT_NE(md.find("http:\u2060//evil.example/login"), std::string::npos) << md;
    EXPECT_NE(md.find("a\uFFFDexe.gnp"), std::string::npos) << md;
}

TEST(Hardening, J01_GithubsRendererMakesNoLinkOfAName) {
    const char* renderer = "/usr/bin/cmark-gfm";
    if (!fs::exists(renderer)) {
        GTEST_SKIP() << "cmark-gfm (GitHub's Markdown renderer) is not installed: "
                        "scripts/install-deps.sh --tests installs it";
    }
    const auto dir = scratch("hardening-j01-render");
    const std::vector<std::string> names = {"http://evil.example/login", "www.evil.example",
                                            "mail someone@evil.example",
                                            "[x](https://evil.example/t)"};
    const auto base = write(dir / "base.json", with_names(dir, names, 100000, "base"));
    const auto head = write(dir / "head.json", with_names(dir, names, 120000, "head"));
    const auto md = dir / "comment.md";
    const auto r = cgbench({"compare", "--no-db", "--format", "markdown", "--out", md.string(),
                            base.string(), head.string()});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    exec::ProcessSpec spec;
    spec.argv = {renderer, "-e", "autolink", "-e", "table", md.string()};
    spec.disable_aslr = false;
    exec::PosixProcessRunner runner;
    const auto html = runner.run(spec);
    ASSERT_EQ(html.exit_code, 0) << html.stderr_tail;
    EXPECT_EQ(html.stdout_tail.find("<a "), std::string::npos) << html.stdout_tail;
    EXPECT_NE(html.stdout_tail.find("evil.example/login"), std::string::npos) << html.stdout_tail;
}

TEST(Hardening, J03_TheMarkdownReportStaysUnderACommentsSizeLimit) {
    const auto dir = scratch("hardening-j03");
    const std::vector<std::string> long_names = {std::string(40000, 'a'), std::string(40000, 'b'),
                                                 std::string(40000, 'c')};
    std::vector<std::string> many;
    for (int i = 0; i < 10000; ++i)
        many.push_back(fmt::format("{:05}/{}", i, std::string(200, '<')));
    for (const auto& [label, names] : {std::pair{"long", long_names}, std::pair{"many", many}}) {
        const auto base = write(dir / "base.json", with_names(dir, names, 100000, "base"));
        const auto head = write(dir / "head.json", with_names(dir, names, 120000, "head"));
        const auto r =
            cgbench({"compare", "--no-db", "--format", "markdown", base.string(), head.string()});
        EXPECT_EQ(r.exit_code, 1) << label << ": " << r.err;
        EXPECT_LE(r.out.size(), 60000u) << label;
        const auto count = [&](const std::string& what) {
            std::size_t n = 0;
            for (auto at = r.out.find(what); at != std::string::npos; at = r.out.find(what, at + 1))
                ++n;
            return n;
        };
        EXPECT_EQ(count("<details>"), count("</details>")) << label;
        if (names.size() > 300) {  // rows left out are counted
            EXPECT_NE(r.out.find("more (see the JSON report)"), std::string::npos) << label;
        } else {  // a long name is cut, not the report
            EXPECT_NE(r.out.find(std::string(200, 'a') + "…"), std::string::npos) << label;
        }
        // Every table row is whole: it starts and ends with a pipe.
        for (const auto line : util::split(r.out, '\n')) {
            if (!line.empty() && line.front() == '|') {
                EXPECT_EQ(line.back(), '|') << label;
            }
        }
    }
}

TEST(Hardening, Q04_TheHtmlReportShowsBidirectionalControlsAsReplacements) {
    const auto dir = scratch("hardening-q04");
    const auto db = dir / "h.db";
    for (const auto& [id, ir] : {std::pair{"r1", 100000}, std::pair{"r2", 110000}}) {
        auto doc =
            with_names(dir, {"a" + kBidi + "exe.gnp", "plain"}, static_cast<std::uint64_t>(ir), id);
        doc["run"]["git"]["branch"] = "b" + kBidi + "x";
        const auto f = write(dir / (std::string(id) + ".json"), doc);
        ASSERT_EQ(cgbench({"import", "-q", "--db", db.string(), f.string()}).exit_code, 0);
    }
    const auto html = dir / "r.html";
    const auto r = cgbench({"report", "-q", "--db", db.string(), "--html", html.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto page = util::read_file(html);
    EXPECT_EQ(page.find(kBidi), std::string::npos) << "U+202E in the page";
    EXPECT_NE(page.find("a\uFFFDexe.gnp"), std::string::npos);
    const auto console = cgbench({"history", "--db", db.string()});
    EXPECT_EQ(console.out.find(kBidi), std::string::npos) << console.out;
}

}  // namespace cgbench::e2e
