#include "history/location.hpp"

#include <cctype>

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::history {

namespace {

constexpr std::string_view kSqlite = "sqlite:";

}  // namespace

Location::Location(std::string text) : text_(std::move(text)) {}

std::string_view Location::scheme() const {
    const std::string_view url = text_;
    const auto colon = url.find(':');
    if (colon == std::string_view::npos || colon < 2 ||
        std::isalpha(static_cast<unsigned char>(url[0])) == 0) {
        return {};
    }
    for (std::size_t i = 1; i < colon; ++i) {
        const auto c = static_cast<unsigned char>(url[i]);
        if (std::isalnum(c) == 0 && c != '+' && c != '-' && c != '.') return {};
    }
    return url.substr(0, colon + 1);
}

std::string_view Location::rest() const {
    return std::string_view(text_).substr(scheme().size());
}

std::optional<std::filesystem::path> Location::file() const {
    const auto s = scheme();
    if (s.empty() || s == kSqlite) return std::filesystem::path(std::string(rest()));
    return std::nullopt;
}

std::string Location::shown() const {
    return util::printable(util::without_password(text_));
}

Location Location::absolute(const std::filesystem::path& cwd) const {
    const auto f = file();
    if (!f || f->empty() || f->is_absolute()) return *this;
    return Location(std::string(scheme()) + util::absolute_lexical(cwd / *f).string());
}

}  // namespace cgbench::history
