// `cgbench merge`: join the result files of the shards of one run (`run --shard K/N` in the
// jobs of a CI matrix) into one result, as if the suite had been measured in one job.

#include <fmt/format.h>

#include <memory>

#include "access/history_url.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "core/merge.hpp"
#include "core/result_file.hpp"
#include "core/result_json.hpp"
#include "exec/interrupt.hpp"
#include "util/time.hpp"

namespace cgbench::cli {

namespace {

struct MergeInput {
    std::vector<std::string> files;
    std::optional<std::string> out;
    std::optional<std::string> format;
    config::DbInput db;
};

int merge(const MergeInput& in, const Context& ctx) {
    const auto& format = run_format(in.format, ctx.env, "merge");
    std::unique_ptr<util::OutputFile> out_file;  // checked writable before reading anything
    if (in.out) out_file = std::make_unique<util::OutputFile>(*in.out);
    const auto history = access::open_history_for_run(config::resolve_db(in.db, ctx.env));

    std::vector<SourcedRun> parts;
    for (const auto& f : in.files)
        parts.push_back({f, read_result_file(f)});
    auto merged = merge_runs(parts, util::new_run_id());
    for (const auto& w : merged.warnings)
        warn(w);
    exec::throw_if_interrupted();  // a signal while reading writes and records nothing
    return finish_run(merged.run, format, out_file.get(), history.get(), ctx);
}

}  // namespace

Subcommand register_merge(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "merge",
        "Join the result files of a sharded run into one run:\n"
        "  cgbench merge shard-1.json shard-2.json ... --out all.json\n"
        "The fingerprints must be equal, every benchmark name may occur once, and shards must\n"
        "be all of one --shard K/N split; benchmarks come out in suite order. The merged run\n"
        "is recorded in the history database. Exits 3 when a merged benchmark had failed.");
    add_global_flags(*cmd, global);
    cmd->footer(exit_code_help());
    auto input = std::make_shared<MergeInput>();
    cmd->add_option("files", input->files, "Result files written by `cgbench run --out`")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--out", input->out,
                    "Write the merged result JSON here (a regular file atomically)");
    add_format_option(*cmd, input->format, report::Model::Run);
    add_db_options(*cmd, input->db);
    return {cmd, [input](const Context& ctx) { return merge(*input, ctx); }};
}

}  // namespace cgbench::cli
