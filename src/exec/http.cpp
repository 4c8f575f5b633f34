#include "exec/http.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "exec/program.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kKeptBody = 256 * 1024;

// A value in curl's config syntax: in double quotes, with \ and " escaped and line breaks
// (which would end the value, or start another option) refused by the caller's check.
std::string config_value(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

bool one_line(std::string_view text) {
    return text.find_first_of("\r\n") == std::string_view::npos;
}

std::string config_file(const HttpRequest& r) {
    std::string cfg = "url = " + config_value(r.url) + "\n";
    cfg += "request = " + config_value(r.method) + "\n";
    for (const auto& h : r.headers)
        cfg += "header = " + config_value(h) + "\n";
    cfg += "header = \"Expect:\"\n";  // no 100-continue round trip: send the body at once
    return cfg;
}

std::string failure(const ProcessOutcome& out, double timeout) {
    if (out.how == Termination::TimedOut ||
        (out.how == Termination::Exited && out.exit_code == 28)) {
        return fmt::format("timed out after {:g} s", timeout);
    }
    if (out.how == Termination::SpawnFailed) return "curl could not be started";
    const auto text = util::trim(out.stderr_tail);
    if (!text.empty()) return util::printable(text.substr(0, 300));
    return out.how == Termination::Exited ? fmt::format("curl exited {}", out.exit_code)
                                          : "curl was killed";
}

// curl reading `dir`'s request.cfg (and body), writing the response there.
ProcessSpec curl_spec(const fs::path& curl, const HttpRequest& r, const fs::path& dir,
                      const EnvMap& caller) {
    ProcessSpec spec;
    spec.argv = {curl.string(), "-q",
                 "--silent",    "--show-error",
                 "--proto",     "=http,https",
                 "--config",    (dir / "request.cfg").string(),
                 "--max-time",  fmt::format("{:g}", r.timeout_seconds),
                 "--output",    (dir / "response").string(),
                 "--write-out", "%{http_code}"};
    if (!r.body.empty()) {
        spec.argv.insert(spec.argv.end(), {"--data-binary", "@" + (dir / "body").string()});
    }
    for (const auto& [k, v] : caller)
        spec.env.push_back(k + "=" + v);
    spec.disable_aslr = false;
    spec.timeout_seconds = r.timeout_seconds + 5;  // curl's own limit comes first
    return spec;
}

}  // namespace

HttpResponse send_http(const HttpRequest& request, const EnvMap& caller, ProcessRunner& runner) {
    HttpResponse response;
    if (!one_line(request.url) || !one_line(request.method) ||
        std::any_of(request.headers.begin(), request.headers.end(),
                    [](const std::string& h) { return !one_line(h); })) {
        response.error = "a URL or header holds a line break";
        return response;
    }
    const auto path = caller.count("PATH") != 0 ? caller.at("PATH") : std::string("/usr/bin:/bin");
    const auto curl = search_path("curl", path);
    if (curl.empty()) {
        response.error = "curl is not on PATH (install curl)";
        return response;
    }
    const util::StagingDir dir;  // 0700: the token and the URL stay private
    util::write_file_atomic(dir.path() / "request.cfg", config_file(request));
    util::write_file_atomic(dir.path() / "body", request.body);
    const auto out = runner.run(curl_spec(curl, request, dir.path(), caller));
    const auto status = util::parse_u64(util::trim(out.stdout_tail));
    if (out.how != Termination::Exited || out.exit_code != 0 || !status || *status == 0) {
        response.error = failure(out, request.timeout_seconds);
        return response;
    }
    response.answered = true;
    response.status = static_cast<int>(*status);
    std::error_code ec;
    if (fs::exists(dir.path() / "response", ec)) {
        response.body = util::read_file(dir.path() / "response").substr(0, kKeptBody);
    }
    return response;
}

}  // namespace cgbench::exec
