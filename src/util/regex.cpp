#include "util/regex.hpp"

#include <re2/re2.h>

#include <stdexcept>

namespace cgbench::util {

struct Regex::Impl {
    explicit Impl(const std::string& pattern) : re(pattern, options()) {}
    static RE2::Options options() {
        RE2::Options o;
        o.set_log_errors(false);  // the caller reports the error
        return o;
    }
    RE2 re;
};

Regex::Regex(const std::string& pattern) : impl_(std::make_unique<Impl>(pattern)) {
    if (!impl_->re.ok()) throw std::invalid_argument(impl_->re.error());
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::search(const std::string& text) const {
    return RE2::PartialMatch(text, impl_->re);
}

}  // namespace cgbench::util
