// Weights files: what calibrate writes, --weights FILE and a suite's `weights` read, and the
// errors for files that are not right.

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "base/errors.hpp"
#include "config/suite.hpp"
#include "config/weights_file.hpp"
#include "util/fs.hpp"

namespace cgbench::config {

namespace {

class WeightsFileTest : public ::testing::Test {
  protected:
    std::filesystem::path write(const std::string& name, const std::string& text) {
        const auto p = dir_.path() / name;
        util::write_file_atomic(p, text);
        return p;
    }
    std::string error_of(const std::string& text) {
        const auto p = write("w.toml", text);
        try {
            load_weights_file(p);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "no error";
    }
    util::StagingDir dir_;
};

}  // namespace

TEST_F(WeightsFileTest, ReadsTheWeightsAndTheirName) {
    const auto p = write("epyc.toml",
                         "schema = \"cgbench-weights/1\"\nname = \"epyc\"\nl1 = 1\nll = 3\n"
                         "ram = 42\n\n[calibration]\nr = 0.99\nexact = [1.0, 2.9]\n");
    EXPECT_EQ(load_weights_file(p), (metrics::Weights{"epyc", 1, 3, 42, false}));
}

TEST_F(WeightsFileTest, AMispredictionWeightIsOptional) {
    const auto p = write("branchy.toml", "l1 = 1\nll = 3\nram = 42\nmispredict = 17\n");
    EXPECT_EQ(load_weights_file(p), (metrics::Weights{"branchy", 1, 3, 42, false, 17}));
    EXPECT_EQ(load_weights_file(write("plain.toml", "l1 = 1\nll = 3\nram = 42\n")).mispredict, 0u);
    EXPECT_NE(error_of("l1 = 1\nll = 3\nram = 42\nmispredict = -1\n")
                  .find("w.toml:4: 'mispredict' must be a non-negative integer"),
              std::string::npos);
    // Used without branch simulation, the run refuses it (metrics::with_branch_sim).
    EXPECT_THROW(metrics::with_branch_sim(load_weights_file(p), false), UsageError);
}

TEST_F(WeightsFileTest, TheNameDefaultsToTheFileStem) {
    const auto p = write("laptop.toml", "l1 = 2\nll = 7\nram = 90\n");
    EXPECT_EQ(load_weights_file(p).name, "laptop");
}

TEST_F(WeightsFileTest, BadContentNamesFileLineAndKey) {
    {
        const auto e = error_of("l1 = 1\nll = 3\nram = 42\nrma = 1\n");
        EXPECT_NE(e.find("w.toml:4: unknown key 'rma'"), std::string::npos) << e;
    }
    EXPECT_NE(error_of("l1 = 1\nll = 3\n").find("'ram' is missing"), std::string::npos);
    EXPECT_NE(error_of("l1 = 1\nll = -3\nram = 4\n")
                  .find("w.toml:2: 'll' must be a non-negative integer"),
              std::string::npos);
    EXPECT_NE(error_of("l1 = 1\nll = 2.5\nram = 4\n").find("'ll' must be"), std::string::npos);
    EXPECT_NE(error_of("l1 = 0\nll = 0\nram = 0\n").find("all three weights are 0"),
              std::string::npos);
    EXPECT_NE(error_of("name = \"pythonspeed\"\nl1 = 1\nll = 6\nram = 80\n").find("preset"),
              std::string::npos);
    EXPECT_NE(error_of("schema = \"other/2\"\nl1 = 1\nll = 6\nram = 80\n").find("'schema'"),
              std::string::npos);
    EXPECT_NE(error_of("l1 = [").find("w.toml:1"), std::string::npos);
}

TEST_F(WeightsFileTest, ResolvesPresetsNumbersAndFiles) {
    EXPECT_EQ(resolve_weights("kcachegrind").ram, 100u);
    EXPECT_EQ(resolve_weights("1,6,80"), (metrics::Weights{"custom", 1, 6, 80, false}));
    write("mine.toml", "l1 = 1\nll = 4\nram = 50\n");
    EXPECT_EQ(resolve_weights("mine.toml", dir_.path()).ram, 50u);
    EXPECT_EQ(resolve_weights((dir_.path() / "mine.toml").string()).ll, 4u);
    // Malformed numbers keep the numbers' message; anything else that is no file says so.
    EXPECT_THROW(resolve_weights("1,6"), UsageError);
    try {
        resolve_weights("pythonspeeed", dir_.path());
        FAIL() << "no error";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("not a preset, not L1,LL,RAM, and no file"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(e.hint().find("cgbench calibrate --out FILE"), std::string::npos);
    }
}

TEST_F(WeightsFileTest, AnchorMakesFilePathsAbsoluteAndLeavesTheRest) {
    EXPECT_EQ(anchor_weights("pythonspeed", "/x"), "pythonspeed");
    EXPECT_EQ(anchor_weights("1,6,80", "/x"), "1,6,80");
    EXPECT_EQ(anchor_weights("w/mine.toml", "/x"), "/x/w/mine.toml");
    EXPECT_EQ(anchor_weights("/abs/mine.toml", "/x"), "/abs/mine.toml");
}

TEST_F(WeightsFileTest, FormattedFilesReadBack) {
    WeightsFile f;
    f.weights = {"lab \"box\"", 3, 11, 170, false};
    f.comments = {"first line", "second\nline"};
    f.calibration = {{"r", 0.987},
                     {"kernels", std::int64_t{44}},
                     {"exact", std::vector<double>{1, 3.6}},
                     {"cpu_model", std::string("AMD \"EPYC\"")}};
    const auto text = format_weights_file(f);
    EXPECT_EQ(text.rfind("# first line\n", 0), 0u) << text;
    EXPECT_EQ(text.find("second\nline"), std::string::npos) << "a comment line broke: " << text;
    EXPECT_LT(text.find("l1 = 3"), text.find("ram = 170"));
    EXPECT_EQ(load_weights_file(write("f.toml", text)), f.weights);
    EXPECT_EQ(text.find("mispredict"), std::string::npos) << "written without one: " << text;
    f.weights.mispredict = 23;
    EXPECT_EQ(load_weights_file(write("g.toml", format_weights_file(f))), f.weights);
    // The informational table keeps its types: 1 stays a float, 44 an integer.
    const auto doc = toml::parse(text);
    EXPECT_EQ(doc["calibration"]["exact"][0].value<double>(), 1.0);
    EXPECT_TRUE(doc["calibration"]["exact"][0].is_floating_point());
    EXPECT_EQ(doc["calibration"]["kernels"].value<std::int64_t>(), 44);
    EXPECT_EQ(doc["calibration"]["r"].value<double>(), 0.987);
    EXPECT_EQ(doc["calibration"]["cpu_model"].value<std::string>(), "AMD \"EPYC\"");
}

TEST_F(WeightsFileTest, ASuitesWeightsFileIsRelativeToTheSuite) {
    std::filesystem::create_directories(dir_.path() / "proj" / "conf");
    write("proj/conf/w.toml", "l1 = 1\nll = 2\nram = 30\n");
    const auto suite = write("proj/cgbench.toml",
                             "[defaults]\nweights = \"conf/w.toml\"\n\n[[bench]]\nname = \"a\"\n"
                             "command = [\"true\"]\n");
    const auto s = load_suite(suite);
    ASSERT_TRUE(s.defaults.weights);
    EXPECT_EQ(s.defaults.weights->text, (dir_.path() / "proj/conf/w.toml").string());
    EXPECT_EQ(resolve_weights(s.defaults.weights->text).ram, 30u);
    const auto bad = write("proj/bad.toml",
                           "[defaults]\nweights = \"conf/none.toml\"\n\n[[bench]]\nname = \"a\"\n"
                           "command = [\"true\"]\n");
    try {
        load_suite(bad);
        FAIL() << "no error";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.toml:2: 'weights' in [defaults]"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace cgbench::config
