// The built-in sweep: sizes, their labels, the kernel list, finding cgbench-kernels.

#include "calibrate/kernels.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/errors.hpp"

namespace cgbench::calibrate {

TEST(CalibrateKernels, DefaultSweepIsNineteenPowersOfTwoFrom1KTo256M) {
    const auto sizes = default_sizes();
    ASSERT_EQ(sizes.size(), 19u);
    EXPECT_EQ(sizes.front(), 1024u);
    EXPECT_EQ(sizes.back(), 256ULL << 20);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        EXPECT_EQ(sizes[i], 2 * sizes[i - 1]);
}

TEST(CalibrateKernels, SizesParseAndLabelBothWays) {
    EXPECT_EQ(parse_sizes("1K,64k,4M,1G,1536"),
              (std::vector<std::uint64_t>{1024, 65536, 4ULL << 20, 1ULL << 30, 1536}));
    for (const auto s : default_sizes())
        EXPECT_EQ(parse_sizes(size_label(s)), std::vector<std::uint64_t>{s});
    EXPECT_EQ(size_label(1536), "1536");
    EXPECT_EQ(size_label(3ULL << 20), "3M");
}

TEST(CalibrateKernels, BadSizesAreUsageErrors) {
    for (const char* bad : {"", "1K,,2K", "12X", "-1K", "63", "65G", "1K,1024"}) {
        EXPECT_THROW(parse_sizes(bad), UsageError) << bad;
    }
}

TEST(CalibrateKernels, BuiltinKernelsAreBothWalksThenComputeAndBranch) {
    const auto k = builtin_kernels({1024, 1ULL << 20});
    ASSERT_EQ(k.size(), 8u);
    EXPECT_EQ(k[0].name, "walk/linear/1K");
    EXPECT_EQ(k[1].name, "walk/linear/1M");
    EXPECT_EQ(k[2].name, "walk/random/1K");
    EXPECT_EQ(k[2].family, "walk/random");
    EXPECT_EQ(k[2].kernel_args, (std::vector<std::string>{"walk-random", "1024"}));
    EXPECT_EQ(k[3].working_set, 1ULL << 20);
    EXPECT_EQ(k[4].name, "compute/latency");
    EXPECT_EQ(k[7].name, "branch/random");
    EXPECT_EQ(k[7].kernel_args.front(), "branch-random");
    EXPECT_FALSE(k[7].working_set);
}

TEST(CalibrateKernels, ProgramFromTheEnvironmentOrAnError) {
    const std::string built = CGBENCH_KERNELS_PROGRAM;
    EXPECT_EQ(locate_kernel_program({{"CGBENCH_KERNELS", built}}), std::filesystem::path(built));
    try {
        locate_kernel_program({{"CGBENCH_KERNELS", "/nonexistent/cgbench-kernels"}});
        FAIL() << "no error";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/cgbench-kernels"), std::string::npos);
    }
}

}  // namespace cgbench::calibrate
