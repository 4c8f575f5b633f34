// The process log parser on real logs written by Valgrind 3.19 (tests/data/valgrind-log): with
// --trace-sched=yes, bench/threads.cpp (4 std::threads) and `int main(){return 0;}`; and a
// program meeting an AVX-512 instruction, which Valgrind cannot decode.

#include <gtest/gtest.h>

#include "util/fs.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::valgrind {

namespace {

// threads-trace-sched.log: lines 41-42, 48-49, 53-54, ... of its scheduler trace.
constexpr int kPreemptionsInThreadsLog = 17;

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

TEST(ProcessLog, ThreadsThatInterleavedMidWorkArePreemptions) {
    const auto log = parse_data("threads-trace-sched.log");
    // Counted by hand from the log: a "releasing lock (VG_(scheduler):timeslice)" followed
    // by another thread's "acquired lock".
    EXPECT_EQ(log.preemptions, kPreemptionsInThreadsLog);
    // Hand-overs where a thread waits (a system call, a join) are not preemptions.
    const auto waited = parse_process_log(
        "--7--   SCHED[1]: releasing lock (VG_(client_syscall)[async]) -> VgTs_WaitSys\n"
        "--7--   SCHED[2]: acquired lock (VG_(client_syscall)[async])\n"
        "--7--   SCHED[2]: releasing lock (VG_(scheduler):timeslice) -> VgTs_Yielding\n"
        "--7--   SCHED[2]: acquired lock (VG_(scheduler):timeslice)\n");
    EXPECT_EQ(waited.preemptions, 0);
}

TEST(ProcessLog, ASingleThreadedProcessHasOneThread) {
    const auto log = parse_data("single-trace-sched.log");
    EXPECT_EQ(log.threads, 1);
    EXPECT_EQ(log.parent_pid, 755);
    EXPECT_EQ(log.preemptions, 0);
    EXPECT_TRUE(log.notes.empty());
}

TEST(ProcessLog, ALogWithoutTheSchedulerTraceKnowsNoThreads) {
    EXPECT_EQ(parse_process_log("==9== Command: ./x\n==9== Parent PID: 1\n").threads, 0);
}

TEST(ProcessLog, AnInstructionValgrindCannotDecodeIsKeptAndNamed) {
    const auto log = parse_data("undecodable-avx512.log");
    EXPECT_EQ(log.unhandled_instruction, "0x62 0xF1 0x7D 0x48 0xFE 0xC0 0xB8 0x0 0x0 0x0");
    EXPECT_EQ(log.fatal_signal, 4);
    EXPECT_EQ(describe_unhandled_instruction(log.unhandled_instruction)
                  .rfind("an AVX-512 instruction (0x62 0xF1 0x7D 0x48)", 0),
              0u);
    // Go 1.19's clock read on Valgrind 3.19 (measurement-quality-2, finding 8).
    const auto rdtscp = describe_unhandled_instruction("0xF 0x1 0xF9 0x89 0xC1 0x48");
    EXPECT_NE(rdtscp.find("RDTSCP (0xF 0x1 0xF9 0x89)"), std::string::npos) << rdtscp;
    EXPECT_NE(rdtscp.find("--env GODEBUG=cpu.rdtscp=off"), std::string::npos) << rdtscp;
    EXPECT_NE(describe_unhandled_instruction("0xF 0x38 0xF6").find("older CPU"), std::string::npos);
}

}  // namespace cgbench::valgrind
