#pragma once
// What a history backend stores and finds, and nothing it decides. A backend keeps runs
// (recorded in batches, each run entirely or not at all), finds them by a few facts (id,
// commit, branch, fingerprint key), reads them back as the result file gave them, and hands
// out each benchmark's series for history policy. Which run answers a question (the
// previous run of a branch, a commit's runs merged into one) is decided over this interface
// (history/stored_runs.hpp), so a second backend implements storage only.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "history/model.hpp"

namespace cgbench::history {

// How many functions of each result a history keeps (result files keep more); the rest are
// summed as "(other)".
inline constexpr std::size_t kStoredFunctions = 10;

// The functions a history keeps of a result: fold_functions(functions, kStoredFunctions),
// each with its cost and Ir only.
std::vector<FunctionResult> kept_functions(const std::vector<FunctionResult>& functions);

// How many source lines of each result a history keeps (result files keep more).
inline constexpr std::size_t kStoredLines = 10;

// The lines a history keeps of a result: the first kStoredLines, each with its cost and Ir
// only (stored as rows of their own, names and texts interned, beside the result's document).
std::vector<LineResult> kept_lines(const std::vector<LineResult>& lines);

// `b` as a history keeps it: kept_functions and kept_lines.
void keep_as_stored(BenchmarkResult& b);

// Gives the lines a backend reads from its lines table (in position, rank order) to the
// results of a run: `benchmarks[i]` is the result stored at `positions[i]`. A result with
// stored lines gets exactly those; one without keeps what its document held.
class StoredLineSink {
  public:
    StoredLineSink(const std::vector<std::int64_t>& positions,
                   std::vector<BenchmarkResult>& benchmarks);
    // The next line read, of the result at `position` (ignored when no result is there).
    void add(std::int64_t position, LineResult line);

  private:
    std::map<std::int64_t, std::size_t> index_;  // position -> benchmark
    std::vector<BenchmarkResult>& benchmarks_;
    std::optional<std::int64_t> current_;  // the position whose lines are being read
};

// Whether a run read back (HistoryBackend::load_run) brings each result's kept source lines:
// they are most of what a stored result holds, and only what shows lines (`annotate --lines`,
// `pr`'s annotations) or copies runs (`export`, `import --from`) needs them.
enum class SourceLines {
    Read,  // the kept lines, as recorded
    Skip,  // none: every result's `lines` empty, all else as with Read
};

// Whether it brings each result's kept functions: after the lines, the bulk of a result.
// `compare` needs them only for the few benchmarks it gates (their moved functions), and
// reads those afterwards (access::RunResolver::read_functions).
enum class KeptFunctions {
    Read,  // the kept functions, as recorded
    Skip,  // none: every result's `functions` empty, all else as with Read
};

// What load_run reads besides each result's numbers. A SourceLines alone (the usual
// argument) reads the functions.
struct RunParts {
    constexpr RunParts(SourceLines l = SourceLines::Read,  // NOLINT: implicit by design
                       KeptFunctions f = KeptFunctions::Read)
        : lines(l), functions(f) {}
    SourceLines lines;
    KeptFunctions functions;
};

// Each result's numbers only: what reads names, costs or fingerprints asks for.
inline constexpr RunParts kNumbersOnly{SourceLines::Skip, KeptFunctions::Skip};

// Empties what `parts` skips in every one of `benchmarks`: what a backend's load_run does
// last (a document an old migration could not convert keeps its lines or functions inside).
void drop_unread(std::vector<BenchmarkResult>& benchmarks, RunParts parts);

// What a history is opened for; each backend's `open(location, access)` takes it
// (access/history_url.cpp).
enum class Access {
    Read,    // queries only: never created, written or converted; none when it does not exist
    Record,  // created when missing, converted when older, checked and write-locked once
};

// Accepts a benchmark name; an empty one accepts every name.
using NameFilter = std::function<bool(std::string_view)>;
// Sees each series of a scan; the series is reused for the next one.
using SeriesVisitor = std::function<void(const Series&)>;

// What remove_runs took out.
struct RemovedRows {
    std::size_t runs = 0;
    std::size_t results = 0;
    std::size_t functions = 0;  // the results' kept functions
};

// The costs one stored run measured, for balancing shards (history::latest_costs).
struct StoredCosts {
    std::string run_id;
    std::map<std::string, std::uint64_t> costs;  // benchmark name -> cost (ok results only)
};

// What a history holds under a run id (RunBatch::find).
struct StoredRunInfo {
    std::string started;
    std::size_t benchmarks = 0;
};

// Which runs find_runs returns: each field given must match.
struct RunFilter {
    std::optional<std::string> id = std::nullopt;
    std::optional<std::string> commit = std::nullopt;
    std::optional<std::string> branch = std::nullopt;
    std::optional<std::string> fingerprint_key = std::nullopt;
    bool clean_only = false;  // leave out runs measured with uncommitted changes
    std::size_t limit = SIZE_MAX;
};

// A run as find_runs finds it: what choosing between runs needs, and its handle.
struct FoundRun {
    std::string id;
    std::string started;
    GitInfo git;
    std::string recorded_by;  // RunResult::recorded_by
    std::string fingerprint_key;
    std::int64_t handle = 0;  // for load_run
};

// Several runs recorded in one transaction, each entirely or not at all: a batch destroyed
// before commit() stores none of its runs. Use while its history stays open.
class RunBatch {
  public:
    virtual ~RunBatch() = default;

    // What is stored under run id `id` (committed, or added to this batch); nullopt if none.
    virtual std::optional<StoredRunInfo> find(std::string_view id) = 0;
    // Stores `run` unless a run with its id is stored already (or added to this batch):
    // then nothing is written and what is stored under that id is returned. UsageError,
    // with nothing written, when a cost or count is 2^63 or more (histories keep signed
    // 64-bit integers).
    std::optional<StoredRunInfo> add(const RunResult& run);
    // Commits every run added; EnvironmentError when that fails (then none is stored).
    virtual void commit() = 0;

    // Runs and results added so far.
    std::size_t runs() const { return runs_; }
    std::size_t results() const { return results_; }

  protected:
    // Stores `run`, whose id is not stored yet: every benchmark (failed ones too) with its
    // kept_functions, read back exactly as run_from_json reads its result file.
    virtual void write(const RunResult& run) = 0;

  private:
    std::size_t runs_ = 0;
    std::size_t results_ = 0;
};

// A stored result to read: the one at `position` of `run` (which outlives the reading).
struct StoredResultAt {
    const Run* run = nullptr;
    std::int64_t position = 0;
};

// Reads stored results one after another (what explains a step), each cheaper than
// HistoryBackend::stored_result. Use while its history stays open.
class StoredResultReader {
  public:
    virtual ~StoredResultReader() = default;
    // The numbers of the result at `position` of `run` (name, tool, status, cost when ok,
    // events, derived hits) and its kept functions; nullopt when there is none.
    virtual std::optional<BenchmarkResult> read(const Run& run, std::int64_t position) = 0;
    // read() of each of `wanted`, in its order. One read after another here; a backend on a
    // server reads them with a few queries instead of one each.
    virtual std::vector<std::optional<BenchmarkResult>> read_all(
        const std::vector<StoredResultAt>& wanted);
};

// One open history (not shared between threads). Errors reading or writing it are
// EnvironmentErrors (exit 4) naming it.
class HistoryBackend {
  public:
    virtual ~HistoryBackend() = default;

    // What messages call it: the database file, or the URL it was opened by (never with a
    // password).
    virtual std::string name() const = 0;
    // Where a run it could not record is kept for `cgbench import`: the directory of the file
    // it lives in; nullopt for a history without one (a server's, one in memory), which
    // leaves the choice to the caller.
    virtual std::optional<std::filesystem::path> unrecorded_directory() const = 0;
    // The bytes it takes (a file's size); nullopt when there is no such figure of its own (a
    // database shared by projects, a history in memory).
    virtual std::optional<std::uintmax_t> stored_bytes() const = 0;

    // Begins a batch (waiting while another process writes).
    virtual std::unique_ptr<RunBatch> begin_batch() = 0;
    // Removes `runs` (from load_runs) with their results and functions, in one transaction,
    // and gives the space back.
    virtual RemovedRows remove_runs(const std::vector<Run>& runs) = 0;

    // The runs `filter` accepts, the most recently started first (ties: the later recorded
    // first), at most filter.limit of them.
    virtual std::vector<FoundRun> find_runs(const RunFilter& filter) = 0;
    // The run with `handle` (FoundRun::handle, Run::handle), its benchmarks in recorded order
    // with their kept functions and lines unless `parts` skips them: only those whose name
    // `only` accepts (what `only` refuses is not read either). nullopt when none.
    virtual std::optional<RunResult> load_run(std::int64_t handle, const NameFilter& only,
                                              RunParts parts) = 0;

    // Every run, oldest first (by start time, then recording order), with its fingerprint
    // (each distinct one read once); no series.
    virtual History load_runs() = 0;
    // The series of every benchmark `keep` accepts, by name, handed to `visit` one at a time,
    // each its last `limit` results over the runs of `h` (from load_runs()).
    virtual void scan_series(const History& h, const NameFilter& keep, std::size_t limit,
                             const SeriesVisitor& visit) = 0;
    // The same for the one benchmark `name` (no call when it has no results).
    virtual void scan_series(const History& h, std::string_view name, std::size_t limit,
                             const SeriesVisitor& visit) = 0;
    // A reader of stored results (see StoredResultReader).
    virtual std::unique_ptr<StoredResultReader> result_reader() = 0;

    // Every benchmark name with a stored result, sorted (by bytes).
    virtual std::vector<std::string> benchmark_names() = 0;
    // The last `limit` runs, newest first.
    virtual std::vector<RunRow> runs(std::size_t limit) = 0;
    // Number of stored runs.
    virtual std::size_t run_count() = 0;

    // load_runs() put in commit order (order_runs), with the series of every benchmark `keep`
    // accepts (scan_series): each its last `limit` results in commit order.
    History load_history(const NameFilter& keep, std::size_t limit = SIZE_MAX);
    // The same with the series of the one benchmark `name` (none when it has no results).
    History load_history(std::string_view name, std::size_t limit = SIZE_MAX);
    // result_reader()->read(run, position), for one result.
    std::optional<BenchmarkResult> stored_result(const Run& run, std::int64_t position);
};

// A history opened only when first needed (a run reference may name a file instead): what
// messages call it, and how to open it to read (nullptr when it does not exist).
struct HistorySource {
    std::string name;
    std::function<std::unique_ptr<HistoryBackend>()> open;
};

// For backends: orders `s` as History::runs and keeps its last `limit` results.
void finish_series(Series& s, std::size_t limit);

}  // namespace cgbench::history
