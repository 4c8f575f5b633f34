#pragma once
// SIGINT/SIGTERM/SIGHUP handling for long measurements. The handler only records the signal
// and makes a pipe readable; every wait loop polls that pipe, so all running measurements
// (also in other threads) stop their process groups and unwind, and nothing partial is
// written. The pipe is never drained: once interrupted, always interrupted.

namespace cgbench::exec {

// Installs the handlers (idempotent).
void install_interrupt_handlers();

// The read end of the notification pipe, for poll(); -1 before installation.
int interrupt_fd();

// The signal received, or 0.
int interrupt_signal();

// Throws cgbench::Interrupted if a signal arrived.
void throw_if_interrupted();

}  // namespace cgbench::exec
