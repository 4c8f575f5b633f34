// GitLab's code-quality report (artifacts:reports:codequality) for the lines of a merge
// request whose cost grew: the merge request's diff shows each entry on its line. The keys
// are the ones GitLab documents as required (docs.gitlab.com/ci/testing/code_quality).

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/line_annotations.hpp"
#include "util/sha256.hpp"

namespace cgbench::report {

namespace {

std::string hex(const std::array<std::uint8_t, 32>& digest) {
    std::string out;
    for (const auto byte : digest)
        out += fmt::format("{:02x}", byte);
    return out;
}

}  // namespace

std::string gitlab_code_quality(const std::vector<LineAnnotation>& annotations) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& a : annotations) {
        // Unique per entry, as GitLab requires: the same text twice in a function differs by
        // its number.
        const std::string identity = fmt::format("cgbench-line-cost\n{}\n{}\n{}\n{}\n{}",
                                                 a.benchmark, a.path, a.function, a.text, a.line);
        out.push_back({{"description", fmt::format("{} in {}", annotation_message(a), a.function)},
                       {"check_name", "cgbench-line-cost"},
                       {"fingerprint", hex(util::sha256(identity)).substr(0, 32)},
                       {"severity", "minor"},
                       {"location", {{"path", a.path}, {"lines", {{"begin", a.line}}}}}});
    }
    return dump_json(out) + "\n";
}

}  // namespace cgbench::report
