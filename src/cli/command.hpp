#pragma once
// What every subcommand shares: global options, output helpers, the registration shape.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "config/run_options.hpp"
#include "core/result.hpp"
#include "exec/environment.hpp"
#include "history/backend.hpp"
#include "report/formats.hpp"
#include "report/reporter.hpp"
#include "util/fs.hpp"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace cgbench::config {
struct DbInput;
struct ComparePlan;
}  // namespace cgbench::config

namespace cgbench::compare {
struct Comparison;
}

namespace cgbench::cli {

struct ReportOutput;  // report_outputs.hpp

// A registered subcommand's action, run after parsing succeeded with the context main built;
// returns the exit code.
using Action = std::function<int(const Context&)>;

struct Subcommand {
    CLI::App* app;
    Action action;
};

// Adds -q/-v to `app`. Every subcommand calls it too, so the flags work before or after the
// subcommand name (CLI11's fallthrough would break `run`'s pass-through of program args).
void add_global_flags(CLI::App& app, GlobalOptions& global);

// A count option's check (`history -n`, `report --last`): a whole number of at least 1.
// CLI11's PositiveNumber accepts 0 and prints a 309-digit bound.
CLI::Validator positive_count();

// Adds --db PATH and --no-db (mutually exclusive) for the history database.
void add_db_options(CLI::App& app, config::DbInput& db);

// Adds --format to a command that renders `model`: its help lists the formats that do, and the
// help's footer says what each writes (both from report's table of formats).
void add_format_option(CLI::App& app, std::optional<std::string>& format, report::Model model);

// The format `format` names for `command` (the table's default when nullopt). UsageError
// (exit 2) naming the formats `command` writes when none has that name or it cannot render
// `model`; commands call it before doing anything else.
const report::OutputFormat& chosen_format(const std::optional<std::string>& format,
                                          report::Model model, std::string_view command);

// The format of `run` and `merge`: built-in < CGBENCH_FORMAT in `env` < `format`, checked as
// chosen_format checks it (naming the variable when that chose a bad one).
const report::OutputFormat& run_format(const std::optional<std::string>& format,
                                       const exec::EnvMap& env, std::string_view command);

// Opens the existing history `url` names (a path, sqlite:PATH or memory:) to read; UsageError
// (exit 2) naming it when there is none, EnvironmentError (exit 4) when it is damaged or from
// a newer cgbench.
std::unique_ptr<history::HistoryBackend> open_history(const history::Location& location);

// Where print_out writes.
enum class Stream { Stdout, Stderr };

// Writes `text` to stdout (or stderr) and flushes it. SIGPIPE is ignored, so a closed pipe,
// a full disk or a closed descriptor is an EnvironmentError (exit 4) naming the cause; every
// command saves what it must before it prints.
void print_out(std::string_view text, Stream stream = Stream::Stdout);

// Prints a one-line warning to stderr ("cgbench: warning: ...").
void warn(const std::string& message);

// Help text shared by all subcommands: the exit codes.
std::string exit_code_help();

// Adds the options of `cgbench run` to `app` (`cgbench config show` takes the same ones, so
// it can show what a command line would change).
void add_run_options(CLI::App& app, config::RunInput& input);

// The program and its arguments of `run` / `config show`: everything from the first
// non-option argument on, or after "--". Throws UsageError for an unknown option.
std::vector<std::string> program_arguments(const CLI::App& app, const GlobalOptions& global);

// plan_run, then the shard's share of the suite (what `run` measures and `config show`
// shows); Google Benchmark binaries are listed through `ctx`'s runner. With a shard and a
// history database holding earlier costs of these benchmarks, the shards are balanced by
// those costs (the latest such run), otherwise by name.
config::RunPlan plan_sharded_run(const config::RunInput& input, const Context& ctx);

// Runs of a benchmark found new (one --verify-new's result file lacks, or every one when
// there is no baseline at all), unless its suite `verify` asks for more.
inline constexpr int kNewBenchmarkRuns = 3;

// Prints `run` in `format` (not with -q on the console), writes it to `out` (may be null) and
// to each of `reports` (may be null) when at least one benchmark succeeded, records it in
// `history` (may be null; failed benchmarks included), and throws BenchmarkError naming every
// failed benchmark. Returns 0.
int finish_run(const RunResult& run, const report::OutputFormat& format, util::OutputFile* out,
               history::HistoryBackend* history, const Context& ctx,
               std::vector<ReportOutput>* reports = nullptr);

// The comparison `plan` describes, as `cgbench compare` computes it: BASE and HEAD resolved
// (result files, run ids, git refs, the previous run of HEAD's branch, or no baseline), a
// forced comparison warned about. Stored runs bring their kept source lines only when `lines`
// is Read (`pr` annotates with them; the comparison itself never shows them).
compare::Comparison compare_as_planned(const config::ComparePlan& plan, const Context& ctx,
                                       history::SourceLines lines);

// Registers `cgbench run`.
Subcommand register_run(CLI::App& app, GlobalOptions& global);

// Registers `cgbench compare`.
Subcommand register_compare(CLI::App& app, GlobalOptions& global);

// Registers `cgbench history`.
Subcommand register_history(CLI::App& app, GlobalOptions& global);

// Registers `cgbench export`.
Subcommand register_export(CLI::App& app, GlobalOptions& global);

// Registers `cgbench config` (`config show`).
Subcommand register_config(CLI::App& app, GlobalOptions& global);

// Registers `cgbench merge`.
Subcommand register_merge(CLI::App& app, GlobalOptions& global);
// Registers `cgbench annotate`.
Subcommand register_annotate(CLI::App& app, GlobalOptions& global);

// Registers `cgbench import`.
Subcommand register_import(CLI::App& app, GlobalOptions& global);

// Registers `cgbench report` (`report --html`).
Subcommand register_report(CLI::App& app, GlobalOptions& global);

// Registers `cgbench steps`.
Subcommand register_steps(CLI::App& app, GlobalOptions& global);

// Registers `cgbench prune`.
Subcommand register_prune(CLI::App& app, GlobalOptions& global);

// Registers `cgbench bisect`.
Subcommand register_bisect(CLI::App& app, GlobalOptions& global);

// Registers `cgbench backfill`.
Subcommand register_backfill(CLI::App& app, GlobalOptions& global);

// Registers `cgbench calibrate`.
Subcommand register_calibrate(CLI::App& app, GlobalOptions& global);

// Registers `cgbench pr`.
Subcommand register_pr(CLI::App& app, GlobalOptions& global);

// Registers `cgbench ci` (`ci env`).
Subcommand register_ci(CLI::App& app, GlobalOptions& global);

}  // namespace cgbench::cli
