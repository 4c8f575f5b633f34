// The scheduler with a fake measurement: order, concurrency, progress events and failures.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "base/errors.hpp"
#include "runner/scheduler.hpp"

namespace cgbench::runner {

namespace {

std::vector<BenchmarkSpec> specs(int n) {
    std::vector<BenchmarkSpec> out;
    for (int i = 0; i < n; ++i) {
        out.emplace_back();
        out.back().name = "b" + std::to_string(i);
    }
    return out;
}

// Records events, and fails the test if two calls ever overlap.
class RecordingSink final : public ProgressSink {
  public:
    std::vector<std::string> events;
    std::atomic<bool> inside{false};

    void started(std::size_t index, const BenchmarkSpec& spec) override {
        enter();
        events.push_back("start " + std::to_string(index) + " " + spec.name);
        inside = false;
    }
    void finished(std::size_t index, const std::vector<BenchmarkResult>& results) override {
        enter();
        events.push_back("end " + std::to_string(index) + " " + results.at(0).name);
        inside = false;
    }

  private:
    void enter() {
        EXPECT_FALSE(inside.exchange(true)) << "progress calls overlap";
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
};

std::vector<BenchmarkResult> result_of(const BenchmarkSpec& spec) {
    BenchmarkResult r;
    r.name = spec.name;
    return {r};
}

}  // namespace

TEST(Scheduler, ResultsComeInSuiteOrderWhateverFinishesFirst) {
    std::atomic<int> running{0};
    std::atomic<int> most{0};
    const MeasureFn measure = [&](const BenchmarkSpec& spec) {
        const int now = ++running;
        for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        const int i = std::stoi(spec.name.substr(1));
        std::this_thread::sleep_for(std::chrono::milliseconds(3 * (8 - i)));  // first is slowest
        --running;
        return result_of(spec);
    };
    RecordingSink sink;
    const auto results = run_scheduled(specs(8), 3, measure, &sink);
    ASSERT_EQ(results.size(), 8u);
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(results[i].name, "b" + std::to_string(i));
    EXPECT_EQ(most, 3);
    ASSERT_EQ(sink.events.size(), 16u);
    EXPECT_EQ(sink.events[0], "start 0 b0");  // handed out in suite order
    for (int i = 0; i < 8; ++i) {
        const auto start = std::find(sink.events.begin(), sink.events.end(),
                                     "start " + std::to_string(i) + " b" + std::to_string(i));
        const auto end = std::find(sink.events.begin(), sink.events.end(),
                                   "end " + std::to_string(i) + " b" + std::to_string(i));
        EXPECT_LT(start, end) << i;
    }
}

TEST(Scheduler, SeveralResultsOfOneSpecStayTogetherInSpecOrder) {
    const MeasureFn measure = [&](const BenchmarkSpec& spec) {
        const int i = std::stoi(spec.name.substr(1));
        std::this_thread::sleep_for(std::chrono::milliseconds(2 * (4 - i)));
        std::vector<BenchmarkResult> out;
        for (int k = 0; k < i; ++k) {  // b0 measures nothing, b3 three regions
            BenchmarkResult r;
            r.name = spec.name + "/r" + std::to_string(k);
            out.push_back(r);
        }
        return out;
    };
    std::vector<std::string> names;
    for (const auto& r : run_scheduled(specs(4), 2, measure, nullptr))
        names.push_back(r.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"b1/r0", "b2/r0", "b2/r1", "b3/r0", "b3/r1", "b3/r2"}));
}

TEST(Scheduler, NeverMoreWorkersThanBenchmarks) {
    std::set<std::thread::id> threads;
    std::mutex m;
    const MeasureFn measure = [&](const BenchmarkSpec& spec) {
        const std::lock_guard lock(m);
        threads.insert(std::this_thread::get_id());
        return result_of(spec);
    };
    EXPECT_EQ(run_scheduled(specs(2), 16, measure, nullptr).size(), 2u);
    EXPECT_LE(threads.size(), 2u);
    EXPECT_TRUE(run_scheduled({}, 4, measure, nullptr).empty());
    EXPECT_EQ(run_scheduled(specs(3), 0, measure, nullptr).size(), 3u);  // at least one worker
}

TEST(Scheduler, AFailureStopsNewWorkAndIsRethrownAfterTheOthersFinish) {
    std::atomic<int> started{0};
    std::atomic<bool> slow_done{false};
    const MeasureFn measure = [&](const BenchmarkSpec& spec) -> std::vector<BenchmarkResult> {
        ++started;
        if (spec.name == "b0") {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            slow_done = true;
            return result_of(spec);
        }
        throw UsageError("cannot open stdin of " + spec.name);
    };
    try {
        run_scheduled(specs(10), 2, measure, nullptr);
        FAIL() << "no exception";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot open stdin of b1");
    }
    EXPECT_TRUE(slow_done) << "the running benchmark was abandoned";
    EXPECT_EQ(started, 2);
}

TEST(Scheduler, InterruptedWinsOverOtherFailures) {
    std::atomic<bool> second_started{false};
    const MeasureFn measure = [&](const BenchmarkSpec& spec) -> std::vector<BenchmarkResult> {
        if (spec.name == "b0") {
            while (!second_started)
                std::this_thread::yield();
            throw EnvironmentError("valgrind broke");
        }
        second_started = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        throw Interrupted(2);
    };
    EXPECT_THROW(run_scheduled(specs(2), 2, measure, nullptr), Interrupted);
}

}  // namespace cgbench::runner
