// Result files read the fast way must be exactly what the result file's own reader gives,
// runs and errors alike, whatever their shape.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_file.hpp"
#include "run_fixtures.hpp"

namespace cgbench {

using namespace testing_fixtures;

namespace {

fs::path write(const fs::path& path, std::string_view text) {
    std::ofstream(path) << text;
    return path;
}

RunResult varied_run() {
    auto r = run("20261122T031500Z-0000000f",
                 {bench("parse/small", 100000), bench(kHostile + " \"q\" \\ \t é", 2000),
                  failed_bench("broken")});
    r.benchmarks[0].functions = {FunctionResult{"a.c", "main", r.benchmarks[0].events, 10},
                                 FunctionResult{"", std::string(kOtherFunctions), {}, 5}};
    r.benchmarks[1].region = RegionInfo{"sort", 2};
    r.warnings = {"a run warning"};
    r.shard = "2/3";
    return r;
}

// The message of the UsageError `read` throws, or "" when it throws none.
std::string error_of(const std::function<void()>& read) {
    try {
        read();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(ResultFile, ReadsExactlyWhatTheResultFileReaderReads) {
    const auto dir = fresh_dir("cgbench-result-file");
    auto gbench = bench("gb/BM_x/64", 500);  // a shape the fast reader declines
    gbench.gbench = GbenchInfo{"BM_x/64", 1000, 3};
    auto with_gbench = varied_run();
    with_gbench.benchmarks.push_back(gbench);
    const auto doc = to_json(varied_run());
    auto reordered = nlohmann::json(doc);  // keys sorted: not the order cgbench writes
    for (const auto& [name, text] :
         std::vector<std::pair<std::string, std::string>>{
             {"pretty", dump_json(doc)},
             {"compact", dump_json(doc, -1)},
             {"empty", dump_json(to_json(run("e", {})))},
             {"gbench", dump_json(to_json(with_gbench))},
             {"reordered", reordered.dump(1)}}) {
        const auto path = write(dir / (name + ".json"), text);
        const ResultFile file(path);
        expect_same_run(file.run(), load_result_file(path));
        EXPECT_TRUE(file.claims_result()) << name;
        std::size_t n = 99;
        const auto header = file.header(n);
        EXPECT_EQ(n, load_result_file(path).benchmarks.size()) << name;
        EXPECT_TRUE(header.benchmarks.empty());
        EXPECT_EQ(header.id, load_result_file(path).id);
    }
}

TEST(ResultFile, RefusesWhatTheResultFileReaderRefusesWithItsMessage) {
    const auto dir = fresh_dir("cgbench-result-file-bad");
    auto base = to_json(varied_run());
    std::vector<std::pair<std::string, std::string>> cases;
    auto negative = base;
    negative["benchmarks"][0]["events"]["Ir"] = -5;
    cases.emplace_back("negative", dump_json(negative));
    auto newer = base;
    newer["schema"] = "cgbench-result/2";
    cases.emplace_back("newer", dump_json(newer));
    auto no_id = base;
    no_id["run"]["id"] = "";
    cases.emplace_back("no-id", dump_json(no_id));
    cases.emplace_back("truncated", dump_json(base).substr(0, 300));
    cases.emplace_back("trailing", dump_json(base) + "\n{}");
    cases.emplace_back("raw-byte", "{\"schema\": \"cgbench-result/1\", \xEA}");
    for (const auto& [name, text] : cases) {
        const auto path = write(dir / (name + ".json"), text);
        const auto dom = error_of([&] { load_result_file(path); });
        ASSERT_FALSE(dom.empty()) << name << " is accepted by the result file reader";
        EXPECT_EQ(error_of([&] { ResultFile(path).run(); }), dom) << name;
        EXPECT_EQ(dom.find('\xEA'), std::string::npos) << "raw bytes are escaped: " << dom;
    }
    const auto other = write(dir / "compare.json", R"({"schema": "cgbench-compare/1"})");
    EXPECT_FALSE(ResultFile(other).claims_result());
    EXPECT_FALSE(ResultFile(write(dir / "array.json", "[1, 2]")).claims_result());
    EXPECT_THROW(ResultFile(dir / "missing.json"), UsageError);
}

}  // namespace cgbench
