#pragma once
// Expected numbers read from Valgrind's files and logs with plain string splitting, so that
// tests never check cgbench's parsers against themselves.

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

namespace cgbench::test {

// Pairs the names after `names_key` with the numbers after `values_key`, each taken from the
// last line of `text` that contains the key ("events:" / "summary:", or a log's "Events    :"
// / "Collected :"). Missing trailing numbers are zero, as in Valgrind's formats.
inline std::map<std::string, std::uint64_t> counts_by_hand(std::string_view text,
                                                           std::string_view names_key,
                                                           std::string_view values_key) {
    std::istringstream in{std::string(text)};
    std::string line, names, values;
    while (std::getline(in, line)) {
        if (const auto at = line.find(names_key); at != std::string::npos) {
            names = line.substr(at + names_key.size());
        }
        if (const auto at = line.find(values_key); at != std::string::npos) {
            values = line.substr(at + values_key.size());
        }
    }
    std::istringstream ns(names), vs(values);
    std::map<std::string, std::uint64_t> out;
    std::string name;
    while (ns >> name) {
        std::uint64_t v = 0;
        if (!(vs >> v)) v = 0;
        out[name] = v;
    }
    return out;
}

}  // namespace cgbench::test
