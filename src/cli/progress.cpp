#include "cli/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "report/progress_line.hpp"

namespace cgbench::cli {

namespace {

std::size_t terminal_width() {
    winsize ws{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col - 1U;
    return 79;
}

}  // namespace

ProgressPrinter::ProgressPrinter(Mode mode, std::size_t total) : mode_(mode), total_(total) {
    if (mode_ == Mode::Live) ticker_ = std::thread([this] { tick(); });
}

ProgressPrinter::~ProgressPrinter() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
    if (drawn_) {
        fmt::print(stderr, "\r\033[K");
        std::fflush(stderr);
    }
}

void ProgressPrinter::started(std::size_t index, const runner::BenchmarkSpec& spec) {
    if (mode_ != Mode::Live) return;
    const std::lock_guard lock(mutex_);
    running_[index] = spec.name;
    redraw();
}

void ProgressPrinter::finished(std::size_t index, const std::vector<BenchmarkResult>& results) {
    if (mode_ == Mode::Off) return;
    const std::lock_guard lock(mutex_);
    ++done_;
    running_.erase(index);
    if (mode_ == Mode::Lines) {
        for (const auto& result : results) {
            fmt::print(stderr, "{}\n", report::progress_log_line(done_, total_, result));
        }
        std::fflush(stderr);
    } else {
        redraw();
    }
}

void ProgressPrinter::redraw() {
    report::ProgressState state;
    state.done = done_;
    state.total = total_;
    state.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    for (const auto& [index, name] : running_)
        state.running.push_back(name);
    fmt::print(stderr, "\r{}\033[K", report::live_progress_line(state, terminal_width()));
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressPrinter::tick() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; })) {
        redraw();
    }
}

ProgressPrinter::Mode progress_mode(const GlobalOptions& global) {
    if (global.quiet) return ProgressPrinter::Mode::Off;
    if (global.verbose == 0 && ::isatty(STDERR_FILENO) == 1) return ProgressPrinter::Mode::Live;
    return ProgressPrinter::Mode::Lines;
}

}  // namespace cgbench::cli
