#include "util/time.hpp"

#include <fmt/format.h>
#include <time.h>

#include <random>

namespace cgbench::util {

namespace {

struct tm utc_now() {
    const time_t t = ::time(nullptr);
    struct tm tm {};
    ::gmtime_r(&t, &tm);
    return tm;
}

}  // namespace

std::string now_iso8601() {
    const auto t = utc_now();
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", t.tm_year + 1900, t.tm_mon + 1,
                       t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec);
}

std::string new_run_id() {
    std::random_device rd;
    const auto t = utc_now();
    return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z-{:08x}", t.tm_year + 1900, t.tm_mon + 1,
                       t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, rd());
}

}  // namespace cgbench::util
