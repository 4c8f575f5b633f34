#pragma once
// Where a history lives, as --db, CGBENCH_DB, --history and --from name it: a file (a plain
// path, or sqlite:PATH) or a URL with a scheme (postgresql://USER:PASSWORD@HOST/DB, memory:).
// The one type every command passes around: what it prints is shown(), never the password;
// only a backend's open() reads the text with its credentials.

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::history {

class Location {
  public:
    // Any text: nothing is checked here (the scheme table refuses what it does not know).
    Location(std::string text);  // NOLINT(google-explicit-constructor): --db's text is one
    Location(const char* text) : Location(std::string(text)) {}  // NOLINT

    // The scheme with its colon ("sqlite:", "postgresql:", "memory:"), empty for a plain
    // path. One letter before the colon is no scheme (it could be a drive letter).
    std::string_view scheme() const;
    // What follows the scheme (all of a plain path).
    std::string_view rest() const;
    // The SQLite file a plain path or sqlite:PATH names; nullopt for any other scheme.
    std::optional<std::filesystem::path> file() const;
    // The whole text, password included: for a backend to open. Never print it.
    const std::string& url() const { return text_; }
    // What messages, logs, reports and result files show: printable, the password of a URL
    // (user:PASSWORD@ and ?password=) removed.
    std::string shown() const;
    // A relative file made absolute against `cwd` (sqlite: kept); a URL unchanged.
    Location absolute(const std::filesystem::path& cwd) const;

    bool operator==(const Location& other) const { return text_ == other.text_; }

  private:
    std::string text_;
};

}  // namespace cgbench::history

// "{}" prints shown(): a location formatted into a message never carries its password.
template <>
struct fmt::formatter<cgbench::history::Location> : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(const cgbench::history::Location& l, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(l.shown(), ctx);
    }
};
