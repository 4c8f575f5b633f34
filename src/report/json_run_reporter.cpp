// JSON rendering of a run: the result document itself (schema cgbench-result/1).

#include "core/result_json.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

namespace {

class JsonRunReporter final : public RunReporter {
  public:
    std::string render(const RunResult& run, const RenderOptions&) const override {
        return dump_json(to_json(run)) + "\n";
    }
};

}  // namespace

std::unique_ptr<RunReporter> make_json_run_reporter() {
    return std::make_unique<JsonRunReporter>();
}

}  // namespace cgbench::report
