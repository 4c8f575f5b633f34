// The loader-cache hash recorded in the fingerprint: equal for equal content, different for
// different content, empty when there is no cache to read.

#include <gtest/gtest.h>

#include <filesystem>

#include "runner/fingerprint.hpp"
#include "util/fs.hpp"

namespace cgbench::runner {

TEST(Fingerprint, LoaderCacheHashFollowsTheContent) {
    const auto dir = std::filesystem::path(::testing::TempDir()) / "cgbench-loader-cache";
    std::filesystem::create_directories(dir);
    util::write_file_atomic(dir / "a", "libc.so.6 -> /lib/x86_64-linux-gnu/libc.so.6");
    util::write_file_atomic(dir / "b", "libc.so.6 -> /lib/x86_64-linux-gnu/libc.so.6");
    util::write_file_atomic(dir / "c", "libc.so.6 -> /usr/lib/x86_64-linux-gnu/libc.so.6");
    const auto a = loader_cache_hash(dir / "a");
    EXPECT_EQ(a.size(), 16u);
    EXPECT_EQ(a, loader_cache_hash(dir / "b"));
    EXPECT_NE(a, loader_cache_hash(dir / "c"));
    EXPECT_EQ(loader_cache_hash(dir / "missing"), "");
    std::filesystem::remove_all(dir);
}

}  // namespace cgbench::runner
