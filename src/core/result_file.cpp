#include "core/result_file.hpp"

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_check.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "util/json_cursor.hpp"
#include "util/strings.hpp"

namespace cgbench {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

bool key(util::JsonCursor& c, std::string_view name) {
    std::string k;
    return c.string(k) && k == name && c.eat(':');
}

}  // namespace

ResultFile::ResultFile(const fs::path& path) : source_(path.string()) {
    try {
        text_ = bytes_.emplace(path).view();
    } catch (const EnvironmentError& e) {
        throw UsageError(util::printable(e.what()), "check the path");
    }
}

std::optional<ResultFile::Parts> ResultFile::split() const {
    util::JsonCursor c(text_);
    Parts parts;
    std::string_view raw;
    if (!(c.eat('{') && key(c, "schema") && c.string(parts.schema) && c.eat(',') && key(c, "run") &&
          c.peek() == '{' && c.skip(parts.run) && c.eat(',') && key(c, "benchmarks") &&
          c.eat('['))) {
        return std::nullopt;
    }
    if (!c.eat(']')) {
        do {
            if (c.peek() != '{' || !c.skip(raw)) return std::nullopt;
            parts.benchmarks.push_back(raw);
        } while (c.eat(','));
        if (!c.eat(']')) return std::nullopt;
    }
    if (!c.eat('}') || !c.at_end()) return std::nullopt;
    return parts;
}

RunResult ResultFile::read_header(const Parts& parts) const {
    json doc{{"schema", parts.schema}, {"benchmarks", json::array()}};
    doc["run"] = parse_json_text(parts.run, source_);
    return run_from_json(doc, source_);
}

bool ResultFile::claims_result() const {
    if (const auto parts = split()) return util::starts_with(parts->schema, "cgbench-result/");
    return is_result_document(parse_json_text(text_, source_));
}

RunResult ResultFile::header(std::size_t& benchmarks) const {
    if (const auto parts = split()) {
        try {
            auto run = read_header(*parts);
            benchmarks = parts->benchmarks.size();
            check_result_values(run, source_);
            return run;
        } catch (const UsageError&) {
            // the whole document's reader names the problem as load_result_file does
        }
    }
    auto run = run_from_json(parse_json_text(text_, source_), source_);
    benchmarks = run.benchmarks.size();
    run.benchmarks.clear();
    check_result_values(run, source_);
    return run;
}

std::optional<RunResult> ResultFile::read_fast(const Parts& parts) const {
    try {
        RunResult run = read_header(parts);
        for (const auto b : parts.benchmarks) {
            auto known = read_known_benchmark(b);
            if (!known) return std::nullopt;
            run.benchmarks.push_back(std::move(*known));
        }
        return run;
    } catch (const UsageError&) {
        return std::nullopt;  // the whole document's reader names the problem
    }
}

RunResult ResultFile::run() const {
    std::optional<RunResult> run;
    if (const auto parts = split()) run = read_fast(*parts);
    if (!run) run = run_from_json(parse_json_text(text_, source_), source_);
    check_result_values(*run, source_);
    return std::move(*run);
}

RunResult read_result_file(const fs::path& path) {
    return ResultFile(path).run();
}

}  // namespace cgbench
