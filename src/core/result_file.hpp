#pragma once
// Result files read at the speed of the stored documents. A file cgbench wrote is
// {"schema", "run", "benchmarks": [...]} in that order: its run header goes through the
// result file's own reader (run_from_json) and each benchmark through the fast reader of
// stored documents (result_reader.hpp), which declines anything it does not fully know; any
// other shape, or a benchmark declined, reads the whole file the DOM way. Either way the
// run and every error are exactly what load_result_file gives; the files cgbench writes are
// read at the fast reader's speed (`compare`, `merge`, `import` of thousands of files).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "util/mapped_file.hpp"

namespace cgbench {

// One result file in memory.
class ResultFile {
  public:
    // Maps `path` (a pipe or device is read whole). UsageError naming it when it cannot be
    // read.
    explicit ResultFile(const std::filesystem::path& path);

    // True when the document says it is a result document of some version: a JSON object
    // whose "schema" is "cgbench-result/..." (run() then decides whether it is a valid one).
    // UsageError when the file is not JSON.
    bool claims_result() const;
    // The run without its benchmarks, checked as run() checks it, and in `benchmarks` how
    // many it holds (their documents are not read when the file has the usual shape).
    RunResult header(std::size_t& benchmarks) const;
    // The whole run; UsageError naming the file and the problem when it is not a valid
    // result file (its values checked too: core/result_check.hpp).
    RunResult run() const;

  private:
    // The parts of a document of the usual shape, as text.
    struct Parts {
        std::string schema;
        std::string_view run;
        std::vector<std::string_view> benchmarks;
    };
    std::optional<Parts> split() const;
    RunResult read_header(const Parts& parts) const;
    // The whole run by the fast reader; nullopt when it declines any part.
    std::optional<RunResult> read_fast(const Parts& parts) const;

    std::string source_;
    std::optional<util::FileBytes> bytes_;
    std::string_view text_;
};

// ResultFile(path).run().
RunResult read_result_file(const std::filesystem::path& path);

}  // namespace cgbench
