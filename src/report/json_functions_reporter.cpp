// JSON rendering of the per-function views: `cgbench annotate` (schema "cgbench-annotate/1"),
// and the arrays of what moved that the compare, bisect and steps documents hold.

#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "report/function_report.hpp"
#include "report/line_report.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

class JsonFunctionsReporter final : public FunctionsReporter {
  public:
    std::string render(const BenchmarkResult& b, std::size_t top,
                       const RenderOptions&) const override {
        ojson functions = ojson::array();
        for (std::size_t i = 0; i < std::min(top, b.functions.size()); ++i)
            functions.push_back(to_json(b.functions[i]));
        const ojson doc{{"schema", "cgbench-annotate/1"},
                        {"benchmark", b.name},
                        {"tool", b.tool},
                        {"cost", b.cost},
                        {"functions", std::move(functions)}};
        return dump_json(doc) + "\n";
    }
    std::string render_lines(const BenchmarkResult& b, std::string_view file,
                             const RenderOptions&) const override {
        ojson lines = ojson::array();
        for (const auto& l : b.lines) {
            if (names_file(l.file, file)) lines.push_back(to_json(l));
        }
        const ojson doc{{"schema", "cgbench-annotate/1"},
                        {"benchmark", b.name},
                        {"tool", b.tool},
                        {"cost", b.cost},
                        {"line_info", json_or_null(b.line_info)},
                        {"lines", std::move(lines)}};
        return dump_json(doc) + "\n";
    }
    std::string render_line_changes(const BenchmarkResult& base, const BenchmarkResult& head,
                                    const std::vector<compare::LineChange>& changes,
                                    const RenderOptions&) const override {
        const ojson doc{{"schema", "cgbench-annotate/1"},
                        {"benchmark", head.name},
                        {"base_cost", base.cost},
                        {"head_cost", head.cost},
                        {"line_changes", line_changes_json(changes)}};
        return dump_json(doc) + "\n";
    }
};

}  // namespace

ojson function_changes_json(const std::vector<compare::FunctionChange>& changes) {
    ojson out = ojson::array();
    for (const auto& c : changes) {
        out.push_back(ojson{{"file", c.file},
                            {"name", c.name},
                            {"base", json_or_null(c.base)},
                            {"head", json_or_null(c.head)},
                            {"delta", c.delta},
                            {"share", json_or_null(c.share)}});
    }
    return out;
}

ojson line_changes_json(const std::vector<compare::LineChange>& changes) {
    ojson out = ojson::array();
    for (const auto& c : changes) {
        out.push_back(ojson{{"file", c.file},
                            {"function", c.function},
                            {"text", c.text},
                            {"base_line", json_or_null(c.base_line)},
                            {"head_line", json_or_null(c.head_line)},
                            {"base", json_or_null(c.base)},
                            {"head", json_or_null(c.head)},
                            {"delta", c.delta},
                            {"at_least", c.at_least}});
    }
    return out;
}

ojson process_changes_json(const std::vector<compare::ProcessChange>& changes) {
    ojson out = ojson::array();
    for (const auto& c : changes) {
        out.push_back(ojson{{"process", c.process},
                            {"base", json_or_null(c.base)},
                            {"head", json_or_null(c.head)},
                            {"delta", c.delta},
                            {"share", json_or_null(c.share)}});
    }
    return out;
}

std::unique_ptr<FunctionsReporter> make_json_functions_reporter() {
    return std::make_unique<JsonFunctionsReporter>();
}

}  // namespace cgbench::report
