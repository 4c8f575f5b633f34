#include "cli/app.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <map>

#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "core/errors.hpp"
#include "core/version.hpp"
#include "store/history_store.hpp"

namespace cgbench::cli {

namespace {

void print_error(const std::string& message, const std::string& hint) {
    std::string line = "cgbench: error: " + message;
    if (!hint.empty()) line += " (" + hint + ")";
    fmt::print(stderr, "{}\n", line);
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

}  // namespace

void add_global_flags(CLI::App& app, GlobalOptions& global) {
    app.add_flag("-q,--quiet", global.quiet, "Print only errors");
    app.add_flag("-v,--verbose", global.verbose, "More detail (-vv: also the environment)");
}

void add_db_options(CLI::App& app, config::DbInput& db) {
    auto* path = app.add_option(
        "--db", db.path,
        fmt::format("History database [{}; env CGBENCH_DB]", config::kDefaultDbPath));
    app.add_flag("--no-db", db.disabled, "Use no history database")->excludes(path);
}

store::HistoryStore open_history(const std::filesystem::path& path) {
    auto store = store::HistoryStore::open_existing(path);
    if (!store) {
        throw UsageError(fmt::format("there is no history database at {}", path.string()),
                         "record runs with `cgbench run`, or pass --db PATH");
    }
    return std::move(*store);
}

bool color_on_stdout() {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    if (no_color != nullptr && *no_color != '\0') return false;
    if (term != nullptr && std::string_view(term) == "dumb") return false;
    return ::isatty(STDOUT_FILENO) == 1;
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
           "130  interrupted (Ctrl-C); nothing partial is written";
}

int main(int argc, char** argv) {
    CLI::App app{
        "cgbench: deterministic performance numbers for CI, measured under Valgrind's "
        "Cachegrind.",
        "cgbench"};
    app.set_version_flag("--version", fmt::format("cgbench {}", kVersion));
    app.footer(exit_code_help());
    app.require_subcommand(1);
    GlobalOptions global;
    add_global_flags(app, global);

    std::map<const CLI::App*, Action> actions;
    for (auto&& sub :
         {register_run(app, global), register_compare(app, global), register_history(app, global),
          register_export(app, global), register_merge(app, global), register_config(app, global),
          register_annotate(app, global), register_report(app, global),
          register_steps(app, global), register_prune(app, global),
          register_bisect(app, global), register_calibrate(app, global),
          register_import(app, global)}) {
        actions[sub.app] = sub.action;
    }

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
        const auto* sub = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
        print_error(e.what(),
                    fmt::format("see `{} --help`", sub == &app ? std::string("cgbench")
                                                               : "cgbench " + sub->get_name()));
        return static_cast<int>(ExitCode::kUsage);
    }
    setup_logging(global);
    try {
        return actions.at(app.get_subcommands().front())();
    } catch (const Error& e) {
        print_error(e.what(), e.hint());
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        print_error(fmt::format("internal error: {}", e.what()),
                    "please report this with the command line that caused it");
        return static_cast<int>(ExitCode::kEnvironment);
    }
}

}  // namespace cgbench::cli
