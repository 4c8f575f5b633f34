// GCC 12 with -fsanitize=address warns that std::function members of <regex>'s NFA states
// "may be used uninitialized" when they are moved; a false positive in the library header.
// Silenced for this file (before any include, so it covers the headers too) and nowhere else.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "util/regex.hpp"

#include <regex>
#include <stdexcept>

namespace cgbench::util {

struct Regex::Impl {
    std::regex re;
};

Regex::Regex(const std::string& pattern) : impl_(std::make_unique<Impl>()) {
    try {
        impl_->re = std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw std::invalid_argument(e.what());
    }
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::search(const std::string& text) const {
    return std::regex_search(text, impl_->re);
}

}  // namespace cgbench::util
