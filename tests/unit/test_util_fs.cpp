#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "core/errors.hpp"
#include "util/fs.hpp"

namespace cgbench::util {

namespace {

fs::path fresh_dir(const std::string& name) {
    const fs::path d = fs::path(::testing::TempDir()) / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST(AtomicFile, AppearsOnlyOnCommit) {
    const auto dir = fresh_dir("cgbench-atomic");
    const auto target = dir / "out.json";
    {
        AtomicFile f(target);
        EXPECT_FALSE(fs::exists(target));
        f.commit("{}\n");
    }
    EXPECT_EQ(read_file(target), "{}\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(AtomicFile, UncommittedLeavesTheOldFileAndNoDebris) {
    const auto dir = fresh_dir("cgbench-atomic2");
    const auto target = dir / "out.json";
    std::ofstream(target) << "old";
    { AtomicFile f(target); }
    EXPECT_EQ(read_file(target), "old");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(AtomicFile, UnwritableDestinationsFailUpFront) {
    EXPECT_THROW(AtomicFile("/nonexistent-dir/out.json"), UsageError);
    const auto dir = fresh_dir("cgbench-atomic3");
    EXPECT_THROW(AtomicFile{dir}, UsageError);  // a directory
    if (::geteuid() != 0) {                     // root writes anywhere
        fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_THROW(AtomicFile(dir / "x.json"), UsageError);
        fs::permissions(dir, fs::perms::owner_all);
    }
}

TEST(StagingDir, CreatedAndRemoved) {
    fs::path p;
    {
        StagingDir d;
        p = d.path();
        EXPECT_TRUE(fs::is_directory(p));
        std::ofstream(p / "file") << "x";
    }
    EXPECT_FALSE(fs::exists(p));
}

TEST(EnsureWritableDir, CreatesOrRejects) {
    const auto dir = fresh_dir("cgbench-keep") / "a" / "b";
    ensure_writable_dir(dir, "--keep-raw directory");
    EXPECT_TRUE(fs::is_directory(dir));
    std::ofstream(dir / "file") << "x";
    EXPECT_THROW(ensure_writable_dir(dir / "file", "--keep-raw directory"), UsageError);
}

}  // namespace cgbench::util
