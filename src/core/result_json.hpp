#pragma once
// The versioned result file ("cgbench-result/1", DESIGN §4). The keys written here are a
// contract: add keys freely, never rename them.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cgbench {

inline constexpr std::string_view kResultSchema = "cgbench-result/1";

// `j` as text (indent as nlohmann's dump; -1: compact). Bytes that are not UTF-8 (a program
// name or stderr in another encoding) become U+FFFD instead of an exception: a name never
// makes a result unwritable.
std::string dump_json(const nlohmann::ordered_json& j, int indent = 2);

// `text` as a result document stores it: bytes that are not UTF-8 become U+FFFD, as
// dump_json writes them. Names are made so before they are used, so the console, the result
// file, the history and raw file names all show one name.
std::string as_json_text(const std::string& text);

// The value of `v`, or null when it has none: the JSON reports' "unknown".
template <typename T>
nlohmann::ordered_json json_or_null(const std::optional<T>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json to_json(const RunResult& run);
nlohmann::ordered_json to_json(const BenchmarkResult& bench);
nlohmann::ordered_json to_json(const Fingerprint& fp);
// {"file": ..., "name": ..., "events": {...}, "cost": N}
nlohmann::ordered_json to_json(const FunctionResult& function);
// {"file": ..., "function": ..., "line": N, "text": ... (when read), "events": {...}, "cost": N}
nlohmann::ordered_json to_json(const LineResult& line);
// One process of a benchmark (its "processes" entry).
nlohmann::ordered_json to_json(const ProcessResult& process);
// The run's "git" object: commit, branch, dirty, then the commit's facts when known.
nlohmann::ordered_json to_json(const GitInfo& git);
// Reads a "git" object as to_json writes it; keys missing or of another type stay unset.
GitInfo git_from_json(const nlohmann::json& j);

// Reads a result document. Throws UsageError naming the problem (wrong schema, missing
// key, wrong type); `source` names the file in messages. What the values must be beyond that
// (core/result_check.hpp) is checked where a file comes in, not here: a history reads back
// what it stored, whatever an older cgbench let in.
RunResult run_from_json(const nlohmann::json& doc, const std::string& source);

// Reads the fingerprint of a run document (`run.fingerprint`); UsageError as above.
Fingerprint fingerprint_from_json(const nlohmann::json& j, const std::string& source);

// Reads a benchmark's "functions" array on its own (a history keeping it apart from the
// benchmark's document); UsageError as above.
std::vector<FunctionResult> functions_from_json(const nlohmann::json& array,
                                                const std::string& source);

// Reads and parses a result file, checked as check_result_values checks it; UsageError when
// unreadable or invalid.
RunResult load_result_file(const std::filesystem::path& path);

// Parses `text` as JSON; UsageError naming `source` when it is not JSON (the parser's message
// made printable).
nlohmann::json parse_json_text(std::string_view text, const std::string& source);

// Reads a file as JSON (a regular file through a memory mapping); UsageError naming the file
// when it cannot be read or is not JSON (the parser's message made printable).
nlohmann::json read_json_file(const std::filesystem::path& path);

// True when `doc` says it is a result document, of any version: an object whose "schema" is
// "cgbench-result/..." (run_from_json then decides whether it is a valid one).
bool is_result_document(const nlohmann::json& doc);

}  // namespace cgbench
