#pragma once
// Small owners used by the process runner: a descriptor, a pipe, the tail of a stream.

#include <fcntl.h>
#include <fmt/format.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>

#include "base/errors.hpp"

namespace cgbench::exec {

// Owns a file descriptor.
class Fd {
  public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

  private:
    int fd_ = -1;
};

// A pipe whose both ends are close-on-exec.
struct Pipe {
    Fd read;
    Fd write;
    Pipe() {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0) {
            throw EnvironmentError(fmt::format("pipe() failed: {}", strerror(errno)));
        }
        read.reset(p[0]);
        write.reset(p[1]);
    }
};

// A connected pair of sockets (message boundaries kept, descriptors passable), both ends
// close-on-exec; named as a pipe's: cgbench writes, the child reads.
struct SocketPair {
    Fd read;
    Fd write;
    SocketPair() {
        int p[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p) != 0) {
            throw EnvironmentError(fmt::format("socketpair() failed: {}", strerror(errno)));
        }
        read.reset(p[0]);
        write.reset(p[1]);
    }
};

// Keeps the last `cap` bytes of a stream.
class Tail {
  public:
    explicit Tail(std::size_t cap) : cap_(cap) {}
    void append(const char* data, std::size_t n) {
        buf_.append(data, n);
        if (buf_.size() > 2 * cap_) buf_.erase(0, buf_.size() - cap_);
    }
    std::string take() {
        if (buf_.size() > cap_) buf_.erase(0, buf_.size() - cap_);
        return std::move(buf_);
    }

  private:
    std::size_t cap_;
    std::string buf_;
};

}  // namespace cgbench::exec
