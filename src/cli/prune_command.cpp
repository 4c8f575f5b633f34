// `cgbench prune`: drops runs from the history by age, branch, beyond the newest N of each
// branch or measured with uncommitted changes, then the names no function uses any more,
// then gives the space back (VACUUM). The default branch's newest runs are never dropped.

#include <fmt/format.h>

#include <memory>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "history/lines.hpp"
#include "history/prune.hpp"
#include "report/history_text.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::cli {

namespace {

struct PruneInput {
    config::DbInput db;
    std::optional<std::string> older_than;
    std::vector<std::string> branches;
    std::optional<std::size_t> keep_last;
    bool dirty = false;
    bool dry_run = false;
};

// "2026-01-31" -> the ISO-8601 time before which runs are old. Only a real calendar date up
// to today: the stored times compare as text, so "2026-13-45" or a day and month swapped
// would select runs nobody meant, and a date to come selects every run (unless `dry_run`).
std::string cutoff_date(const std::string& date, std::time_t now, bool dry_run) {
    const auto day = util::parse_date(date);
    if (!day) {
        throw UsageError(fmt::format("--older-than '{}' is not a date", util::printable(date)),
                         "write a calendar date as YYYY-MM-DD (2026-01-31), or an age (90d, 12w)");
    }
    if (*day > now && !dry_run) {
        throw UsageError(
            fmt::format("--older-than {} is in the future: every run is older than that", date),
            "give a date up to today, or see what it selects with --dry-run");
    }
    return date + "T00:00:00Z";
}

// "90d", "12w" or "2026-01-31" -> the ISO-8601 time before which runs are old, `now` being
// the time now.
std::string cutoff(const std::string& age, std::time_t now, bool dry_run) {
    if (age.size() == 10 && age[4] == '-' && age[7] == '-') return cutoff_date(age, now, dry_run);
    const auto n =
        util::parse_u64(std::string_view(age).substr(0, age.empty() ? 0 : age.size() - 1));
    const char unit = age.empty() ? '\0' : age.back();
    if (n && (unit == 'd' || unit == 'w') && *n < 100000) {
        const auto days = static_cast<std::time_t>(*n) * (unit == 'w' ? 7 : 1);
        return util::iso8601_at(now - days * 86400);
    }
    throw UsageError(fmt::format("--older-than '{}' is not an age", util::printable(age)),
                     "write days or weeks (90d, 12w) or a date (2026-01-31)");
}

// "FILE: 1,000 -> 800 bytes", for a history whose size is its own.
std::string size_change(const history::HistoryBackend& history,
                        std::optional<std::uintmax_t> before) {
    const auto after = history.stored_bytes();
    if (!before || !after) return {};
    return fmt::format("{}: {} -> {} bytes\n", history.name(), util::with_commas(*before),
                       util::with_commas(*after));
}

std::string listing(const history::History& h, const std::vector<std::size_t>& drop) {
    std::string out;
    constexpr std::size_t kShown = 10;
    for (std::size_t i = 0; i < std::min(drop.size(), kShown); ++i) {
        const auto& run = h.runs[drop[i]];
        out += fmt::format("  {}  {}  {}  {}\n", util::printable(run.id),
                           report::short_time(run.started), report::short_commit(run.git.commit),
                           util::printable(history::branch_of(run)));
    }
    if (drop.size() > kShown) out += fmt::format("  ... and {} more\n", drop.size() - kShown);
    return out;
}

int execute(const PruneInput& in, const Context& ctx) {
    history::PruneRules rules;
    if (in.older_than) rules.before = cutoff(*in.older_than, ctx.now(), in.dry_run);
    rules.branches = in.branches;
    for (auto& b : rules.branches) {  // the name runs without a branch had before
        if (b == history::kNoBranchBefore) b = std::string(history::kNoBranch);
    }
    rules.keep_last = in.keep_last;
    rules.dirty_only = in.dirty;
    if (!history::has_rules(rules)) {
        throw UsageError("prune needs to know what to drop",
                         "pass --older-than AGE, --branch B, --keep-last N or --dirty");
    }
    const auto path = config::resolve_db(in.db, ctx.env);
    if (!path) throw UsageError("prune needs the database, and --no-db was given");
    // Prune writes: it opens the database as a recording run does, once it is known to exist.
    open_history(*path);
    const auto store = access::open_history(*path, access::Access::Record);
    const auto h = store->load_runs();
    rules.default_branch = history::default_branch(h, std::nullopt);
    const auto selection = history::select_prune(h.runs, rules);
    const auto kept = fmt::format(
        "{} run{} of the default branch {} kept whatever the rules (its newest {})",
        selection.protected_runs, selection.protected_runs == 1 ? "" : "s",
        util::printable(rules.default_branch), rules.keep_last.value_or(history::kProtectedRuns));
    if (in.dry_run || selection.drop.empty()) {
        fmt::print("{} {} of {} run{}{}\n{}",
                   in.dry_run ? "would remove" : "nothing to remove:", selection.drop.size(),
                   h.runs.size(), h.runs.size() == 1 ? "" : "s",
                   selection.protected_runs > 0 ? "; " + kept : "",
                   ctx.global.quiet ? "" : listing(h, selection.drop));
        return 0;
    }
    std::vector<history::Run> drop;
    for (const auto i : selection.drop)
        drop.push_back(h.runs[i]);
    const auto before = store->stored_bytes();
    const auto removed = store->remove_runs(drop);
    if (!ctx.global.quiet) {
        fmt::print("removed {} of {} runs ({} results, {} function rows){}\n{}", removed.runs,
                   h.runs.size(), removed.results, removed.functions,
                   selection.protected_runs > 0 ? "; " + kept : "", size_change(*store, before));
    }
    return 0;
}

}  // namespace

Subcommand register_prune(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("prune",
                                   "Drop old runs from the history and give the space back:\n"
                                   "  cgbench prune [--older-than AGE] [--branch B] "
                                   "[--keep-last N] [--dirty]");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<PruneInput>();
    cmd->add_option("--older-than", input->older_than,
                    "Runs started before AGE ago (90d, 12w) or before a date (2026-01-31, up "
                    "to today)");
    cmd->add_option("--branch", input->branches,
                    "Runs of this branch (repeatable; '(detached)' for runs recorded without "
                    "one)")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    cmd->add_option("--keep-last", input->keep_last, "Runs beyond the newest N of their branch")
        ->check(positive_count());
    cmd->add_flag("--dirty", input->dirty, "Runs measured with uncommitted changes");
    cmd->add_flag("--dry-run", input->dry_run, "Say what would be removed; change nothing");
    add_db_options(*cmd, input->db);
    cmd->footer(
        fmt::format(
            "A run is removed when it matches every rule given. The default branch's newest N\n"
            "runs (N = --keep-last, else {}) are never removed. Then the names no stored\n"
            "function uses any more go too, and VACUUM returns the space to the file system.\n\n",
            history::kProtectedRuns) +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
