#pragma once
// A local HTTP receiver for the alert tests: an HTTP/1.1 server on 127.0.0.1 (a free port) in
// a thread of the test, recording every request and answering as the test says: a status and
// a body, or no answer at all (the connection held open until the receiver stops).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cgbench::e2e {

class HttpReceiver {
  public:
    struct Request {
        std::string method;
        std::string target;                          // path and query
        std::map<std::string, std::string> headers;  // names in lower case
        std::string body;
    };
    struct Reply {
        int status = 200;
        std::string body = "{}";
        bool hang = false;  // never answer
    };
    // `reply(request, n)`: the answer to the n-th request (0-based).
    using Replier = std::function<Reply(const Request&, std::size_t)>;

    explicit HttpReceiver(Replier reply) : reply_(std::move(reply)) {
        listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (::bind(listen_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(listen_, 16) != 0 ||
            ::getsockname(listen_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
            throw std::runtime_error(std::string("receiver: ") + std::strerror(errno));
        }
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }

    ~HttpReceiver() {
        stop_ = true;
        thread_.join();
        for (const int fd : held_)
            ::close(fd);
        ::close(listen_);
    }

    HttpReceiver(const HttpReceiver&) = delete;
    HttpReceiver& operator=(const HttpReceiver&) = delete;

    std::string url(const std::string& path = "/hook") const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

    std::vector<Request> requests() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return requests_;
    }

  private:
    void serve() {
        while (!stop_) {
            pollfd p{listen_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            const int fd = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            Request r;
            if (!read_request(fd, r)) {
                ::close(fd);
                continue;
            }
            std::size_t n = 0;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                n = requests_.size();
                requests_.push_back(r);
            }
            const Reply reply = reply_(r, n);
            if (reply.hang) {
                held_.push_back(fd);
                continue;
            }
            const std::string text = "HTTP/1.1 " + std::to_string(reply.status) +
                                     " X\r\nContent-Type: application/json\r\nContent-Length: " +
                                     std::to_string(reply.body.size()) +
                                     "\r\nConnection: close\r\n\r\n" + reply.body;
            (void)!::write(fd, text.data(), text.size());
            ::close(fd);
        }
    }

    // Reads one request (headers, then Content-Length bytes of body) within 5 s.
    static bool read_request(int fd, Request& r) {
        std::string data;
        std::size_t header_end = std::string::npos;
        std::size_t length = 0;
        char buf[4096];
        for (int waited = 0; waited < 100;) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) {
                ++waited;
                continue;
            }
            const auto got = ::read(fd, buf, sizeof buf);
            if (got <= 0) return false;
            data.append(buf, static_cast<std::size_t>(got));
            if (header_end == std::string::npos) {
                header_end = data.find("\r\n\r\n");
                if (header_end == std::string::npos) continue;
                parse_head(data.substr(0, header_end), r);
                if (r.headers.count("content-length") != 0) {
                    length = std::stoul(r.headers.at("content-length"));
                }
                if (r.headers["expect"] == "100-continue") {
                    const std::string go = "HTTP/1.1 100 Continue\r\n\r\n";
                    (void)!::write(fd, go.data(), go.size());
                }
            }
            if (data.size() >= header_end + 4 + length) {
                r.body = data.substr(header_end + 4, length);
                return true;
            }
        }
        return false;
    }

    static void parse_head(const std::string& head, Request& r) {
        std::size_t at = head.find("\r\n");
        const std::string first = head.substr(0, at);
        r.method = first.substr(0, first.find(' '));
        const auto t = first.find(' ') + 1;
        r.target = first.substr(t, first.find(' ', t) - t);
        while (at != std::string::npos && at < head.size()) {
            const auto next = head.find("\r\n", at + 2);
            const auto line =
                head.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(0, colon);
                for (auto& c : name)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                r.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
            }
            at = next;
        }
    }

    Replier reply_;
    int listen_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<Request> requests_;
    std::vector<int> held_;
};

}  // namespace cgbench::e2e
