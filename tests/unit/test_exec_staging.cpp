#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "exec/staging.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

// Runs `body` in a child process that ends with _exit, skipping every destructor: what a
// cgbench killed with SIGKILL leaves behind. Returns the line the child wrote.
template <class Body>
std::string in_killed_process(Body body) {
    int p[2];
    EXPECT_EQ(::pipe(p), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(p[0]);
        const std::string line = body();
        [[maybe_unused]] const auto n = ::write(p[1], line.data(), line.size());
        ::_exit(0);
    }
    ::close(p[1]);
    std::string out;
    char buf[512];
    ssize_t n = 0;
    while ((n = ::read(p[0], buf, sizeof buf)) > 0)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(p[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

}  // namespace

TEST(Staging, RootIsPrivateToTheCaller) {
    struct stat st {};
    ASSERT_EQ(::lstat(staging_root().c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_uid, ::geteuid());
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    const std::string fixed = "/tmp/cgbench-" + std::to_string(::geteuid());
    if (staging_note().empty()) {
        EXPECT_EQ(staging_root(), fixed);
    } else {  // another user holds the fixed name: a fresh directory, and the note says so
        EXPECT_TRUE(staging_root().string().starts_with(fixed + ".")) << staging_root();
    }
}

TEST(Staging, OutputDirIsLockedAndRemoved) {
    fs::path p;
    {
        const OutputDir d;
        p = d.path();
        EXPECT_EQ(p.parent_path(), staging_root());
        EXPECT_TRUE(fs::exists(p / "lock"));
        std::ofstream(p / "file") << "x";
        clean_stale_staging();  // a live directory must be kept
        EXPECT_TRUE(fs::exists(p / "file"));
    }
    EXPECT_FALSE(fs::exists(p));
}

TEST(Staging, LinksAreSharedAndRemovedByTheLastUser) {
    const fs::path target = fs::temp_directory_path();
    fs::path link;
    {
        const ProgramLink a(target);
        link = a.path();
        EXPECT_EQ(link, staging_root() / link_name(target));
        EXPECT_EQ(fs::read_symlink(link), target);
        {
            const ProgramLink b(target);  // a parallel job of the same program
            EXPECT_EQ(b.path(), link);
        }
        EXPECT_TRUE(fs::is_symlink(link)) << "still used by the first";
    }
    EXPECT_FALSE(fs::exists(fs::symlink_status(link)));
    EXPECT_FALSE(fs::exists(link.string() + ".lock"));
}

TEST(Staging, WhatAKilledRunLeftIsRemovedByTheNext) {
    const fs::path target = fs::temp_directory_path() / "cgbench-staging-test";
    fs::create_directories(target);
    const std::string left = in_killed_process([&] {
        static OutputDir* out = new OutputDir();       // never destroyed
        static ProgramLink* link = new ProgramLink(target);
        return out->path().string() + "\n" + link->path().string();
    });
    const fs::path out = left.substr(0, left.find('\n'));
    const fs::path link = left.substr(left.find('\n') + 1);
    ASSERT_TRUE(fs::exists(out));
    ASSERT_TRUE(fs::is_symlink(link));
    EXPECT_GE(clean_stale_staging(), 2);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(fs::symlink_status(link)));
}

}  // namespace cgbench::exec
