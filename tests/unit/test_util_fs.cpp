#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "base/errors.hpp"
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

TEST(OutputFile, AppearsOnlyOnCommit) {
    const auto dir = fresh_dir("cgbench-atomic");
    const auto target = dir / "out.json";
    {
        OutputFile f(target);
        EXPECT_FALSE(fs::exists(target));
        f.commit("{}\n");
    }
    EXPECT_EQ(read_file(target), "{}\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(OutputFile, UncommittedLeavesTheOldFileAndNoDebris) {
    const auto dir = fresh_dir("cgbench-atomic2");
    const auto target = dir / "out.json";
    std::ofstream(target) << "old";
    { OutputFile f(target); }
    EXPECT_EQ(read_file(target), "old");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(OutputFile, UnwritableDestinationsFailUpFront) {
    EXPECT_THROW(OutputFile("/nonexistent-dir/out.json"), UsageError);
    const auto dir = fresh_dir("cgbench-atomic3");
    EXPECT_THROW(OutputFile{dir}, UsageError);  // a directory
    if (::geteuid() != 0) {                     // root writes anywhere
        fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_THROW(OutputFile(dir / "x.json"), UsageError);
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

TEST(OutputFile, AnOwnLinkIsFollowedAndStaysALink) {
    const auto dir = fresh_dir("cgbench-out-link");
    std::ofstream(dir / "target.json") << "old";
    fs::permissions(dir / "target.json", fs::perms(0640));
    fs::create_symlink("target.json", dir / "link.json");
    OutputFile f(dir / "link.json");
    EXPECT_TRUE(f.is_file());
    f.commit("new");
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_EQ(read_file(dir / "target.json"), "new");
    EXPECT_EQ(fs::status(dir / "target.json").permissions(), fs::perms(0640)) << "mode kept";
    fs::create_symlink("missing/x.json", dir / "dangling.json");
    EXPECT_THROW(OutputFile(dir / "dangling.json"), UsageError);
}

TEST(OutputFile, AFifoIsWrittenInPlace) {
    const auto dir = fresh_dir("cgbench-out-fifo");
    const auto fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    OutputFile f(fifo);
    EXPECT_FALSE(f.is_file());
    std::string got;
    std::thread reader([&] { got = read_file(fifo); });
    f.commit("through the pipe");
    reader.join();
    EXPECT_EQ(got, "through the pipe");
    EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);
}

TEST(OutputFile, DescriptorNamesWriteThatDescriptor) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    {
        OutputFile f(fmt::format("/dev/fd/{}", fds[1]));
        EXPECT_FALSE(f.is_stdout());
        f.commit("to the descriptor");
    }
    ::close(fds[1]);
    char buffer[64] = {};
    EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 17);
    EXPECT_EQ(std::string(buffer), "to the descriptor");
    ::close(fds[0]);
    EXPECT_TRUE(OutputFile("-").is_stdout());
    EXPECT_THROW(OutputFile("/dev/fd/999"), UsageError) << "not open";
}

TEST(CopyFileReplacing, ReplacesALinkAndNeverWritesThroughIt) {
    const auto dir = fresh_dir("cgbench-copy-replacing");
    std::ofstream(dir / "from") << "raw profile";
    std::ofstream(dir / "victim") << "victim";
    fs::create_symlink(dir / "victim", dir / "to");
    copy_file_replacing(dir / "from", dir / "to");
    EXPECT_EQ(read_file(dir / "victim"), "victim");
    EXPECT_FALSE(fs::is_symlink(dir / "to"));
    EXPECT_EQ(read_file(dir / "to"), "raw profile");
    EXPECT_EQ(fs::status(dir / "to").permissions(), fs::perms(0644));
    EXPECT_THROW(copy_file_replacing(dir / "missing", dir / "x"), EnvironmentError);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3)
        << "no temporary left";
}

TEST(EnsureWritableDir, ADirectoryOfAnotherUserIsRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a directory of another user";
    const auto dir = fresh_dir("cgbench-keep-other") / "shared";
    fs::create_directories(dir);
    ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
    EXPECT_THROW(ensure_writable_dir(dir, "--keep-raw directory"), UsageError);
}

}  // namespace cgbench::util
