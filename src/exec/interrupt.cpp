#include "exec/interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

#include "base/errors.hpp"

namespace cgbench::exec {

namespace {

std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};
std::once_flag g_once;

void on_signal(int signo) {
    int expected = 0;
    g_signal.compare_exchange_strong(expected, signo);
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
}

}  // namespace

void install_interrupt_handlers() {
    std::call_once(g_once, [] {
        if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        for (const int s : {SIGINT, SIGTERM, SIGHUP})
            ::sigaction(s, &sa, nullptr);
    });
}

int interrupt_fd() {
    return g_pipe[0];
}

int interrupt_signal() {
    return g_signal.load();
}

void throw_if_interrupted() {
    if (const int s = g_signal.load(); s != 0) throw Interrupted(s);
}

}  // namespace cgbench::exec
