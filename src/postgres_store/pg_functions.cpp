#include "postgres_store/pg_functions.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "util/json_cursor.hpp"

namespace cgbench::postgres_store {

namespace {

// The results of one run whose documents may still hold functions.
constexpr std::string_view kDocumentsWithFunctions = R"sql(
SELECT position, data FROM cgbench.results
WHERE run = $1 AND function_list IS NULL AND data LIKE '%"functions":%')sql";

constexpr std::string_view kSetFunctionLists = R"sql(
UPDATE cgbench.results r SET data = u.data, function_list = u.list
FROM unnest($2::integer[], $3::text[], $4::text[]) AS u (position, data, list)
WHERE r.run = $1 AND r.position = u.position)sql";

}  // namespace

Param function_list(const std::vector<FunctionResult>& functions) {
    if (functions.empty()) return std::nullopt;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& f : functions)
        list.push_back(to_json(f));
    return dump_json(list, -1);
}

std::vector<FunctionResult> read_function_list(const Connection& c, std::string_view text) {
    if (auto fast = read_known_functions(text)) return std::move(*fast);
    try {
        return functions_from_json(nlohmann::json::parse(text), c.shown());
    } catch (const nlohmann::json::parse_error&) {
    } catch (const UsageError&) {
    }
    throw EnvironmentError(
        fmt::format("history database {}: a result's functions are not a functions array",
                    c.shown()),
        "the database was changed by something other than cgbench");
}

std::optional<std::pair<std::string, std::string>> split_functions(std::string_view data) {
    util::JsonCursor c(data);
    if (!c.eat('{') || c.eat('}')) return std::nullopt;
    const char* previous_end = nullptr;  // where the value before the current key ends
    std::optional<std::pair<std::size_t, std::size_t>> cut;
    std::string_view list;
    do {
        std::string_view key, raw;
        if (!c.key(key) || !c.eat(':') || !c.skip(raw)) return std::nullopt;
        if (key == "functions") {
            // The writer never puts them first; a document that does keeps them.
            if (previous_end == nullptr || cut || raw.empty() || raw.front() != '[') {
                return std::nullopt;
            }
            cut.emplace(previous_end - data.data(), raw.data() + raw.size() - data.data());
            list = raw;
        }
        previous_end = raw.data() + raw.size();
    } while (c.eat(','));
    if (!c.eat('}') || !c.at_end() || !cut) return std::nullopt;
    std::string rest(data.substr(0, cut->first));
    rest += data.substr(cut->second);
    return std::pair{std::move(rest), std::string(list)};
}

void move_functions_out(Connection& c) {
    const auto runs = c.exec("SELECT DISTINCT run FROM cgbench.results ORDER BY run");
    for (int i = 0; i < runs.rows(); ++i) {
        const std::string run(runs.text(i, 0));
        const auto docs = c.exec(kDocumentsWithFunctions, {run});
        std::vector<Param> positions, data, lists;
        for (int row = 0; row < docs.rows(); ++row) {
            auto split = split_functions(docs.text(row, 1));
            if (!split) continue;
            positions.emplace_back(std::string(docs.text(row, 0)));
            data.emplace_back(std::move(split->first));
            lists.emplace_back(std::move(split->second));
        }
        if (positions.empty()) continue;
        c.exec(kSetFunctionLists,
               {run, text_array(positions), text_array(data), text_array(lists)});
    }
}

}  // namespace cgbench::postgres_store
