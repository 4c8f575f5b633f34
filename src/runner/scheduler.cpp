#include "runner/scheduler.hpp"

#include <algorithm>
#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include "base/errors.hpp"

namespace cgbench::runner {

namespace {

bool is_interrupt(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const Interrupted&) {
        return true;
    } catch (...) {
        return false;
    }
}

// The shared state of the workers: a queue (the next index), the results by index and the
// first failure. Everything is guarded by one mutex, held only between measurements.
class Scheduler {
  public:
    Scheduler(const std::vector<BenchmarkSpec>& specs, const MeasureFn& measure,
              ProgressSink* progress)
        : specs_(specs), measure_(measure), progress_(progress), results_(specs.size()) {}

    // One worker: takes benchmarks until none is left or one has thrown.
    void work() {
        while (const auto index = take()) {
            try {
                auto results = measure_(specs_[*index]);
                const std::lock_guard lock(mutex_);
                if (progress_ != nullptr) progress_->finished(*index, results);
                results_[*index] = std::move(results);
            } catch (...) {
                fail(std::current_exception());
                return;
            }
        }
    }

    // The results in suite order, or the failure after all workers ended.
    std::vector<BenchmarkResult> finish() {
        if (error_) std::rethrow_exception(error_);
        std::vector<BenchmarkResult> out;
        for (auto& results : results_) {
            std::move(results.begin(), results.end(), std::back_inserter(out));
        }
        return out;
    }

  private:
    std::optional<std::size_t> take() {
        const std::lock_guard lock(mutex_);
        if (error_ || next_ == specs_.size()) return std::nullopt;
        const std::size_t index = next_++;
        if (progress_ != nullptr) progress_->started(index, specs_[index]);
        return index;
    }

    void fail(std::exception_ptr e) {
        const std::lock_guard lock(mutex_);
        if (!error_ || (is_interrupt(e) && !is_interrupt(error_))) error_ = std::move(e);
    }

    const std::vector<BenchmarkSpec>& specs_;
    const MeasureFn& measure_;
    ProgressSink* progress_;
    std::mutex mutex_;
    std::size_t next_ = 0;
    std::vector<std::vector<BenchmarkResult>> results_;  // by spec index
    std::exception_ptr error_;
};

}  // namespace

std::vector<BenchmarkResult> run_scheduled(const std::vector<BenchmarkSpec>& specs, int jobs,
                                           const MeasureFn& measure, ProgressSink* progress) {
    Scheduler scheduler(specs, measure, progress);
    const auto workers =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), specs.size());
    {
        std::vector<std::jthread> threads;  // joined when the block ends, also on a throw
        threads.reserve(workers);
        for (std::size_t i = 0; i < workers; ++i)
            threads.emplace_back([&] { scheduler.work(); });
    }
    return scheduler.finish();
}

}  // namespace cgbench::runner
