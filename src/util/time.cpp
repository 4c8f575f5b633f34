#include "util/time.hpp"

#include <fmt/format.h>
#include <time.h>

#include <random>

namespace cgbench::util {

namespace {

struct tm utc_at(time_t t) {
    struct tm tm {};
    ::gmtime_r(&t, &tm);
    return tm;
}

struct tm utc_now() {
    return utc_at(::time(nullptr));
}

std::string iso8601(const struct tm& t) {
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", t.tm_year + 1900, t.tm_mon + 1,
                       t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec);
}

}  // namespace

std::string now_iso8601() {
    return iso8601(utc_now());
}

std::string iso8601_at(std::time_t t) {
    return iso8601(utc_at(t));
}

std::string new_run_id() {
    std::random_device rd;
    const auto t = utc_now();
    return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z-{:08x}", t.tm_year + 1900, t.tm_mon + 1,
                       t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, rd());
}

}  // namespace cgbench::util
