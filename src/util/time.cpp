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

// `width` digits at `text[at]`, or -1.
int digits(std::string_view text, std::size_t at, std::size_t width) {
    if (at + width > text.size()) return -1;
    int v = 0;
    for (std::size_t i = at; i < at + width; ++i) {
        if (text[i] < '0' || text[i] > '9') return -1;
        v = v * 10 + (text[i] - '0');
    }
    return v;
}

// Seconds since the epoch of a UTC calendar time whose fields were read from text; nullopt
// when the fields name no such time (month 13, February 30, hour 24).
std::optional<std::time_t> utc_time(int year, int month, int day, int hour, int minute,
                                    int second) {
    if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
        minute > 59 || second < 0 || second > 59) {
        return std::nullopt;
    }
    struct tm tm {};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const time_t t = ::timegm(&tm);  // normalises: 2025-02-30 becomes March 2
    const auto back = utc_at(t);
    if (back.tm_year != year - 1900 || back.tm_mon != month - 1 || back.tm_mday != day) {
        return std::nullopt;
    }
    return t;
}

}  // namespace

std::optional<std::time_t> parse_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
    return utc_time(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2), 0, 0, 0);
}

std::string now_iso8601() {
    return iso8601(utc_now());
}

std::string iso8601_at(std::time_t t) {
    return iso8601(utc_at(t));
}

namespace {

// Days from 1970-01-01 to year-month-day of the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

}  // namespace

std::optional<std::int64_t> parse_iso8601(std::string_view t) {
    // YYYY-MM-DDTHH:MM:SS then Z or +HH:MM / -HH:MM
    if (t.size() < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
        t[16] != ':') {
        return std::nullopt;
    }
    const int y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
    const int h = digits(t, 11, 2), mi = digits(t, 14, 2), s = digits(t, 17, 2);
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
        s < 0 || s > 60 || !parse_date(t.substr(0, 10))) {
        return std::nullopt;
    }
    std::int64_t offset = 0;
    const auto zone = t.substr(19);
    if (zone != "Z") {
        if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') {
            return std::nullopt;
        }
        const int oh = digits(zone, 1, 2), om = digits(zone, 4, 2);
        if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
        offset = (zone[0] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    }
    return days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 +
           h * 3600 + mi * 60 + s - offset;
}

std::string new_run_id() {
    std::random_device rd;
    const auto t = utc_now();
    return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z-{:08x}", t.tm_year + 1900, t.tm_mon + 1,
                       t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, rd());
}

}  // namespace cgbench::util
