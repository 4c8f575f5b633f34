// configs/cgbench.toml, the suite template users start from: it parses, and it shows every
// key the suite reader accepts, so a key added to the reader without the template fails here.

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <set>
#include <string>

#include "config/suite.hpp"

namespace cgbench::config {

namespace {

const std::filesystem::path kTemplate =
    std::filesystem::path(CGBENCH_SOURCE_DIR) / "configs" / "cgbench.toml";

// The keys used in `table` of the template: [defaults] or every [[bench]]/[[gbench]].
std::set<std::string> keys_in(const toml::table& doc, const std::string& table) {
    std::set<std::string> out;
    const auto add = [&out](const toml::table& t) {
        for (const auto& [key, value] : t)
            out.insert(std::string(key.str()));
    };
    if (const auto* t = doc[table].as_table()) add(*t);
    if (const auto* a = doc[table].as_array()) {
        for (const auto& entry : *a) {
            if (const auto* t = entry.as_table()) add(*t);
        }
    }
    return out;
}

}  // namespace

TEST(SuiteTemplate, Parses) {
    const Suite s = load_suite(kTemplate);
    ASSERT_EQ(s.entries.size(), 4u);
    EXPECT_EQ(s.entries[0].name, "parse/large");
    EXPECT_TRUE(s.entries[3].gbench);
    ASSERT_TRUE(s.defaults.weights.has_value());
    EXPECT_EQ(s.defaults.weights->text, "pythonspeed");
}

TEST(SuiteTemplate, ShowsEveryKnownKey) {
    const toml::table doc = toml::parse_file(kTemplate.string());
    for (const std::string table : {"defaults", "bench", "gbench"}) {
        const auto used = keys_in(doc, table);
        ASSERT_FALSE(known_suite_keys(table).empty()) << table;
        for (const auto key : known_suite_keys(table)) {
            EXPECT_TRUE(used.count(std::string(key))) << "[" << table << "] lacks " << key;
        }
    }
}

}  // namespace cgbench::config
