// `cgbench import FILE|DIR...`: result files into the history database, as if each run had
// been recorded when it was measured: shards and offline machines, a run whose recording
// failed, or a whole history rebuilt from kept result files. A run already stored (same run
// id) is skipped, so importing twice stores once.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <optional>

#include "access/history_url.hpp"
#include "access/run_import.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/interrupt.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

struct ImportInput {
    std::vector<std::string> paths;
    std::optional<std::string> from;  // --from: another history to copy
    config::DbInput db;
};

struct Tally {
    std::size_t files = 0;
    std::size_t present = 0;
    std::size_t other_json = 0;
    std::size_t invalid = 0;
    std::size_t links = 0;  // links out of a directory searched, not read
};

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", util::with_commas(n), n == 1 ? one : many);
}

// Says what happened to a file whose run was stored already: always when the stored run
// differs (another file holds the same id), with -v or for a file named itself otherwise.
void note_present(const access::ImportSource& source, const access::ImportedFile& file,
                  const std::string& db, const GlobalOptions& global) {
    const auto& stored = *file.stored;
    const std::string what = fmt::format("{}: run {} is already in {}", source.path.string(),
                                         util::printable(file.run_id), db);
    if (stored.benchmarks != file.benchmarks) {
        warn(fmt::format("{} with {} (this file has {}); the stored run was kept", what,
                         plural(stored.benchmarks, "result", "results"), file.benchmarks));
    } else if (!global.quiet && (global.verbose > 0 || !source.found_in_directory)) {
        print_out(what + "; not imported again\n");
    }
}

std::string summary(const access::RunImporter& importer, const Tally& t, const std::string& db) {
    std::string out =
        fmt::format("imported {} ({}) into {}", plural(importer.committed_runs(), "run", "runs"),
                    plural(importer.committed_results(), "result", "results"), db);
    if (importer.transactions() > 1) {
        out += fmt::format(" in {} transactions", importer.transactions());
    }
    if (t.present > 0) {
        out += fmt::format("; {} already there", plural(t.present, "run was", "runs were"));
    }
    if (t.links > 0) {
        out += fmt::format("; {} leading out of the directory skipped",
                           plural(t.links, "link", "links"));
    }
    if (t.other_json > 0) {
        out += fmt::format("; {} skipped", plural(t.other_json, "JSON file that is no result file",
                                                  "JSON files that are no result files"));
    }
    return out + "\n";
}

// `import --from HISTORY`: every run of another history, oldest first, as stored there.
int import_history(const history::Location& from_url, const history::Location& db,
                   const Context& ctx) {
    const auto from = access::open_history(from_url, access::Access::Read);
    if (!from) {
        throw UsageError(fmt::format("--from {}: there is no history there", from_url),
                         "name an existing history: a SQLite file (sqlite:PATH) or a "
                         "postgresql:// URL with its project");
    }
    const auto store = access::open_history(db, access::Access::Record);
    if (store->name() == from->name()) {
        throw UsageError(fmt::format("--from and --db both name {}", store->name()),
                         "pass --db with the history to copy into");
    }
    access::RunImporter importer(*store);
    Tally tally;
    for (const auto& run : from->load_runs().runs) {
        exec::throw_if_interrupted();  // batches committed so far stay; the open one is undone
        ++tally.files;
        if (importer.import_run(*from, run).status == access::ImportedFile::Status::AlreadyStored)
            ++tally.present;
    }
    importer.finish();
    if (!ctx.global.quiet) {
        auto line = summary(importer, tally, store->name());
        line.insert(line.find(" into "), " from " + from->name());
        print_out(line);
    }
    return 0;
}

int execute(const ImportInput& in, const Context& ctx) {
    const auto path = config::resolve_db(in.db, ctx.env);
    if (!path) {
        throw UsageError("import writes into the history database, and --no-db was given",
                         "drop --no-db; --db PATH chooses the database");
    }
    if (in.from) {
        if (!in.paths.empty()) {
            throw UsageError("import takes result files or --from, not both",
                             "import the files and the other history in two commands");
        }
        return import_history(history::Location(*in.from), *path, ctx);
    }
    if (in.paths.empty()) {
        throw UsageError("import needs result files, directories or --from HISTORY",
                         "cgbench import FILE|DIR..., or cgbench import --from sqlite:PATH");
    }
    const auto sources = access::import_sources(in.paths);
    const auto store = access::open_history(*path, access::Access::Record);
    access::RunImporter importer(*store);
    Tally tally;
    for (const auto& source : sources) {
        exec::throw_if_interrupted();  // batches committed so far stay; the open one is undone
        ++tally.files;
        if (!source.skip_reason.empty()) {
            ++tally.links;
            warn(fmt::format("{}: {}: skipped", source.path.string(), source.skip_reason));
            continue;
        }
        try {
            const auto file = importer.import(source);
            using Status = access::ImportedFile::Status;
            if (file.status == Status::NotAResult) {
                ++tally.other_json;
                spdlog::debug("{}: not a result file, skipped", source.path.string());
            } else if (file.status == Status::AlreadyStored) {
                ++tally.present;
                note_present(source, file, store->name(), ctx.global);
            }
        } catch (const UsageError& e) {
            ++tally.invalid;
            spdlog::error("{}", e.what());
        }
    }
    importer.finish();
    if (!ctx.global.quiet) print_out(summary(importer, tally, store->name()));
    if (tally.invalid > 0) {
        throw UsageError(fmt::format("{} of {} not imported: not a valid result file (named above)",
                                     tally.invalid, plural(tally.files, "file", "files")),
                         "fix or remove them and import again; runs imported already are skipped");
    }
    return 0;
}

}  // namespace

Subcommand register_import(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "import",
        "Store result files in the history database:\n"
        "  cgbench import FILE|DIR... [--db PATH]\n"
        "FILE is a result file written by `cgbench run --out` or `cgbench merge --out`; a DIR\n"
        "stands for every *.json file below it (other JSON documents there are skipped).\n"
        "A run whose id is stored already is skipped, so importing a file twice stores it\n"
        "once. Each run is stored entirely or not at all; files are read as `compare` reads\n"
        "them, and an invalid one is named and not imported (exit 2) while the others are.\n"
        "  cgbench import --from HISTORY [--db URL]\n"
        "copies every run of another history (a SQLite file, sqlite:PATH, or a\n"
        "postgresql:// URL) with its id, fingerprint and kept functions: moving a\n"
        "history into PostgreSQL, or back into a file. Runs stored already are skipped.");
    add_global_flags(*cmd, global);
    cmd->footer(exit_code_help());
    auto input = std::make_shared<ImportInput>();
    cmd->add_option("paths", input->paths, "Result files, or directories holding them");
    cmd->add_option("--from", input->from,
                    "Copy every run of another history: a path, sqlite:PATH or postgresql://...");
    add_db_options(*cmd, input->db);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
