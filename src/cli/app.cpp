#include "cli/app.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "core/result_json.hpp"
#include "core/version.hpp"
#include "exec/interrupt.hpp"
#include "exec/process.hpp"
#include "postgres_store/pg.hpp"
#include "postgres_store/pg_schema.hpp"
#include "sqlite_store/schema.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

void print_error(const std::string& message, const std::string& hint) {
    std::string line = "cgbench: error: " + message;
    if (!hint.empty()) line += " (" + hint + ")";
    fmt::print(stderr, "{}\n", line);
}

// Every command resolves paths against the working directory; a deleted one is the user's to
// fix, not an internal error.
void check_working_directory() {
    char buffer[4096];
    if (::getcwd(buffer, sizeof buffer) == nullptr && errno == ENOENT) {
        throw UsageError("the working directory no longer exists",
                         "cd to an existing directory and run cgbench again");
    }
}

void setup_logging(const GlobalOptions& g) {
    auto logger = spdlog::stderr_color_mt("cgbench");
    logger->set_pattern("cgbench: %^%l%$: %v");
    logger->set_level(g.verbose >= 2   ? spdlog::level::trace
                      : g.verbose == 1 ? spdlog::level::debug
                      : g.quiet        ? spdlog::level::err
                                       : spdlog::level::warn);
    spdlog::set_default_logger(logger);
}

std::string write_error_hint(int err) {
    return err == EPIPE ? "the reader of cgbench's output stopped reading; what cgbench saves "
                          "(result file, history) was saved before printing"
                        : "check where standard output goes (a full disk, a closed descriptor)";
}

// The subcommands of `app`, for messages: "run, compare, ...".
std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

// UsageError for `word`, which names no subcommand of `app`.
[[noreturn]] void refuse_subcommand(const CLI::App& app, const std::string& word) {
    const auto names = subcommand_names(app);
    std::vector<std::string_view> candidates(names.begin(), names.end());
    const auto near = util::closest(word, candidates);
    const std::string where = app.get_parent() == nullptr ? "cgbench" : "cgbench " + app.get_name();
    throw UsageError(
        fmt::format("unknown subcommand '{}' of {}{}", util::printable(word), where,
                    near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)),
        fmt::format("{} has {}; see `{} --help`", where, util::join(names, ", "), where));
}

// Follows the subcommands `args` name (after a parse error) and throws UsageError for a word
// that names none, or for a command line that ends before a required subcommand.
void check_subcommands(const CLI::App& app, const std::vector<std::string>& args) {
    const CLI::App* at = &app;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!args[i].empty() && args[i][0] == '-') continue;
        const CLI::App* next = nullptr;
        for (const auto* sub : at->get_subcommands([](const CLI::App*) { return true; })) {
            if (sub->get_name() == args[i]) next = sub;
        }
        if (next == nullptr) refuse_subcommand(*at, args[i]);
        if (next->get_require_subcommand_min() == 0) return;
        at = next;
    }
    const std::string where = at->get_parent() == nullptr ? "cgbench" : "cgbench " + at->get_name();
    throw UsageError(
        fmt::format("{} needs a subcommand", where),
        fmt::format("one of {}; see `{} --help`", util::join(subcommand_names(*at), ", "), where));
}

// Flushes stdout at exit: a write error the buffer hid until now (a full disk) is reported,
// and a successful command then exits 4 instead of 0.
int flush_stdout(int code) {
    if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return code;
    const int err = errno;
    print_error(fmt::format("cannot write to standard output: {}", std::strerror(err)),
                write_error_hint(err));
    return code == 0 ? static_cast<int>(ExitCode::kEnvironment) : code;
}

}  // namespace

void print_out(std::string_view text, Stream stream) {
    std::FILE* f = stream == Stream::Stderr ? stderr : stdout;
    if (std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0) return;
    const int err = errno;
    std::clearerr(f);  // reported here, not again at exit
    throw EnvironmentError(
        fmt::format("cannot write to standard {}: {}",
                    stream == Stream::Stderr ? "error" : "output", std::strerror(err)),
        write_error_hint(err));
}

void add_global_flags(CLI::App& app, GlobalOptions& global) {
    // Callbacks rather than bound variables: CLI11 2.4 (Debian 13) resets a variable bound to
    // the subcommand's flag when the flag was given only before the subcommand
    // (`cgbench -q run` printed everything, `cgbench -v run` nothing more).
    app.add_flag_callback(
        "-q,--quiet", [&global] { global.quiet = true; }, "Print only errors");
    app.add_flag_function(
        "-v,--verbose", [&global](std::int64_t n) { global.verbose += static_cast<int>(n); },
        "More detail (-vv: also the environment)");
}

CLI::Validator positive_count() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const auto n = util::parse_u64(text);
            if (n && *n >= 1) return {};
            return fmt::format("'{}' is not a whole number of at least 1", util::printable(text));
        },
        "COUNT");
}

void add_db_options(CLI::App& app, config::DbInput& db) {
    auto* path = app.add_option(
        "--db", db.path,
        fmt::format("History database: a path, sqlite:PATH, postgresql://USER@HOST:PORT/DB or "
                    "memory: [{}; env CGBENCH_DB]",
                    config::kDefaultDbPath));
    app.add_flag("--no-db", db.disabled, "Use no history database")->excludes(path);
    app.add_option("--project", db.project,
                   "Project within a PostgreSQL history [the git remote's path; env "
                   "CGBENCH_PROJECT]");
}

void add_format_option(CLI::App& app, std::optional<std::string>& format, report::Model model) {
    app.add_option("--format", format, report::format_option_help(model));
    // CLI11 prints a footer callback's text before the footer the command sets.
    app.footer([model] { return report::formats_help(model); });
}

const report::OutputFormat& chosen_format(const std::optional<std::string>& format,
                                          report::Model model, std::string_view command) {
    const std::string name = format.value_or(std::string(report::output_formats().front().name));
    return report::find_format(name, model, command);
}

const report::OutputFormat& run_format(const std::optional<std::string>& format,
                                       const exec::EnvMap& env, std::string_view command) {
    return *config::parse_layered(
        config::layered_format(format, env), [&](const std::string& name) {
            return &report::find_format(name, report::Model::Run, command);
        });
}

std::unique_ptr<history::HistoryBackend> open_history(const history::Location& location) {
    auto store = access::open_history(location, access::Access::Read);
    if (!store) {
        throw UsageError(fmt::format("there is no history database at {}", location),
                         "record runs with `cgbench run`, or pass --db PATH");
    }
    return store;
}

void warn(const std::string& message) {
    spdlog::warn("{}", message);
}

std::string exit_code_help() {
    return "Exit codes:\n"
           "  0  success, no regression\n"
           "  1  regression over threshold (compare)\n"
           "  2  usage, configuration or input error\n"
           "  3  a benchmark failed: non-zero exit, signal, timeout, not repeatable\n"
           "  4  environment error: valgrind missing or unusable, history database damaged,\n"
           "     unwritable or from a newer cgbench, files cgbench needs\n"
           "130  interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP); nothing partial is written";
}

// CLI11 2.5 and later reflow a command's description and footer into paragraphs, which
// collapses the aligned lists of the footers (formats, exit codes) into run-on lines: they are
// printed as written, as CLI11 2.1 prints them. Subcommands share the top command's formatter.
template <class Formatter>
void keep_help_text_as_written(Formatter& formatter) {
    if constexpr (requires {
                      formatter.enable_footer_formatting(false);
                      formatter.enable_description_formatting(false);
                  }) {
        formatter.enable_footer_formatting(false);
        formatter.enable_description_formatting(false);
    }
}

int main(int argc, char** argv) {
    CLI::App app{
        "cgbench: deterministic performance numbers for CI, measured under Valgrind's "
        "Cachegrind.",
        "cgbench"};
    app.set_version_flag(
        "--version",
        fmt::format("cgbench {}\nhistory database schema {} (SQLite), PostgreSQL schema {}\n"
                    "result files {}",
                    kVersion, sqlite_store::kSchemaVersion,
                    postgres_store::built_in() ? std::to_string(postgres_store::kPgSchemaVersion)
                                               : std::string("- (built without PostgreSQL)"),
                    kResultSchema));
    keep_help_text_as_written(*app.get_formatter());
    app.footer(exit_code_help());
    app.require_subcommand(1);
    GlobalOptions global;
    add_global_flags(app, global);

    std::map<const CLI::App*, Action> actions;
    for (auto&& sub :
         {register_run(app, global), register_compare(app, global), register_history(app, global),
          register_export(app, global), register_merge(app, global), register_config(app, global),
          register_annotate(app, global), register_report(app, global), register_steps(app, global),
          register_prune(app, global), register_bisect(app, global), register_backfill(app, global),
          register_calibrate(app, global), register_import(app, global), register_pr(app, global),
          register_ci(app, global)}) {
        actions[sub.app] = sub.action;
    }
    // A closed pipe is a write error to report (and to survive: results are saved before
    // anything is printed), not a silent death. Measured programs get SIGPIPE back.
    ::signal(SIGPIPE, SIG_IGN);

    // The first "--" ends cgbench's own options; what follows is never parsed as options.
    int own = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--") {
            own = i;
            global.after_dashes = std::vector<std::string>(argv + i + 1, argv + argc);
            break;
        }
    }
    try {
        app.parse(own, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        try {
            check_subcommands(app, std::vector<std::string>(argv + 1, argv + own));
        } catch (const UsageError& u) {
            print_error(u.what(), u.hint());
            return static_cast<int>(ExitCode::kUsage);
        }
        const auto* sub = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
        print_error(e.what(),
                    fmt::format("see `{} --help`", sub == &app ? std::string("cgbench")
                                                               : "cgbench " + sub->get_name()));
        return static_cast<int>(ExitCode::kUsage);
    }
    setup_logging(global);
    try {
        check_working_directory();  // before anything reads it
        // Every command may start processes or wait for the database: a signal ends them
        // through the interrupt pipe (exit 128 + the signal) rather than killing cgbench.
        exec::install_interrupt_handlers();
        exec::PosixProcessRunner runner;
        const Context context = process_context(global, runner);
        return flush_stdout(actions.at(app.get_subcommands().front())(context));
    } catch (const Error& e) {
        print_error(e.what(), e.hint());
        return flush_stdout(static_cast<int>(e.code()));
    } catch (const std::exception& e) {
        print_error(fmt::format("internal error: {}", e.what()),
                    "please report this with the command line that caused it");
        return static_cast<int>(ExitCode::kEnvironment);
    }
}

}  // namespace cgbench::cli
