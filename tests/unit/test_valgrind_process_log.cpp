// The process log parser on real logs written by Valgrind 3.19 with --trace-sched=yes
// (tests/data/valgrind-log): bench/threads.cpp, 4 std::threads, and `int main(){return 0;}`.

#include <gtest/gtest.h>

#include "util/fs.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::valgrind {

namespace {

ProcessLog parse_data(const std::string& name) {
    return parse_process_log(
        util::read_file(std::string(CGBENCH_TEST_DATA) + "/valgrind-log/" + name));
}

}  // namespace

TEST(ProcessLog, CountsTheThreadsAProcessStarted) {
    const auto log = parse_data("threads-trace-sched.log");
    EXPECT_EQ(log.threads, 5);  // main and the 4 it started
    EXPECT_EQ(log.pid, 757);
    EXPECT_EQ(log.command, "./threads");
    EXPECT_TRUE(log.notes.empty());  // the scheduler's lines are not notes
}

TEST(ProcessLog, ASingleThreadedProcessHasOneThread) {
    const auto log = parse_data("single-trace-sched.log");
    EXPECT_EQ(log.threads, 1);
    EXPECT_EQ(log.parent_pid, 755);
    EXPECT_TRUE(log.notes.empty());
}

TEST(ProcessLog, ALogWithoutTheSchedulerTraceKnowsNoThreads) {
    EXPECT_EQ(parse_process_log("==9== Command: ./x\n==9== Parent PID: 1\n").threads, 0);
}

}  // namespace cgbench::valgrind
