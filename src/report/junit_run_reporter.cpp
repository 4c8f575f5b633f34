// JUnit XML rendering of a run: a testcase per benchmark, a failure per failed benchmark
// (GitLab `artifacts:reports:junit`, Jenkins, GitHub test reporters).

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/reporter.hpp"
#include "report/run_summary.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

class JunitRunReporter final : public RunReporter {
  public:
    std::string render(const RunResult& run, const RenderOptions&) const override {
        std::size_t failures = 0;
        double total = 0;
        for (const auto& b : run.benchmarks) {
            failures += b.status != BenchStatus::Ok;
            total += b.wall_seconds;
        }
        std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        out += fmt::format(
            "<testsuites name=\"cgbench\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
            run.benchmarks.size(), failures, total);
        out += fmt::format(
            "  <testsuite name=\"cgbench run {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
            "time=\"{:.3f}\" timestamp=\"{}\">\n",
            markup_escape(run.id), run.benchmarks.size(), failures, total,
            markup_escape(run.started));
        for (const auto& b : run.benchmarks)
            out += testcase(b, run.fingerprint.branch_sim);
        if (!run.warnings.empty()) {
            out += fmt::format("    <system-out>{}</system-out>\n",
                               markup_escape(warning_lines(run.warnings)));
        }
        out += "  </testsuite>\n</testsuites>\n";
        return out;
    }

  private:
    // "warning: ..." lines, as the console shows them.
    static std::string warning_lines(const std::vector<std::string>& warnings) {
        std::string out;
        for (const auto& w : warnings)
            out += "warning: " + w + "\n";
        return out;
    }

    static std::string testcase(const BenchmarkResult& b, bool branch_sim) {
        std::string out =
            fmt::format("    <testcase classname=\"cgbench\" name=\"{}\" time=\"{:.3f}\">\n",
                        markup_escape(b.name), b.wall_seconds);
        if (b.status != BenchStatus::Ok) {
            out +=
                fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                            markup_escape(b.error), status_label(b), markup_escape(b.stderr_tail));
            if (!b.warnings.empty()) {
                out += fmt::format("      <system-out>{}</system-out>\n",
                                   markup_escape(warning_lines(b.warnings)));
            }
        } else {
            const auto titles = summary_titles(branch_sim);
            const auto cells = summary_cells(b, branch_sim);
            std::string summary;
            for (std::size_t i = 2; i < cells.size(); ++i) {
                summary += fmt::format("{}{}={}", i > 2 ? ", " : "", titles[i], cells[i]);
            }
            out += fmt::format("      <system-out>{}</system-out>\n",
                               markup_escape(summary + "\n" + warning_lines(b.warnings)));
        }
        return out + "    </testcase>\n";
    }
};

}  // namespace

std::unique_ptr<RunReporter> make_junit_run_reporter() {
    return std::make_unique<JunitRunReporter>();
}

}  // namespace cgbench::report
