#pragma once
// Suite progress on stderr while benchmarks run: a live line on a terminal, one plain line per
// finished benchmark otherwise (CI logs), nothing with -q. The text comes from
// report/progress_line.hpp; this class only decides when and where it is written.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "runner/scheduler.hpp"

namespace cgbench::cli {

class ProgressPrinter final : public runner::ProgressSink {
  public:
    enum class Mode { Off, Lines, Live };

    // `total`: how many benchmarks the run has. Live mode redraws the line a few times a second
    // from its own thread, so the elapsed time moves while long benchmarks run.
    ProgressPrinter(Mode mode, std::size_t total);
    // Stops redrawing and clears the live line (also when the run is interrupted).
    ~ProgressPrinter() override;
    ProgressPrinter(const ProgressPrinter&) = delete;
    ProgressPrinter& operator=(const ProgressPrinter&) = delete;

    void started(std::size_t index, const runner::BenchmarkSpec& spec) override;
    void finished(std::size_t index, const std::vector<BenchmarkResult>& results) override;

  private:
    void redraw();  // with mutex_ held
    void tick();

    Mode mode_;
    std::size_t total_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool drawn_ = false;
    std::size_t done_ = 0;
    std::map<std::size_t, std::string> running_;  // by index: indices are handed out in order
    std::thread ticker_;
};

// Live when stderr is a terminal (and not -v, whose log lines would tear the line), plain lines
// otherwise, off with -q.
ProgressPrinter::Mode progress_mode(const GlobalOptions& global);

}  // namespace cgbench::cli
