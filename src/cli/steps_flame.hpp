#pragma once
// `cgbench steps --flame DIR --build CMD`: the differential flame graph of each of the worst
// code steps found (at most --flame-count), as `cgbench pr` draws one for a regressed
// benchmark. Both commits of a step are checked out in one worktree, built with CMD, and the
// benchmark is measured again there under Callgrind; each commit is built once however many
// steps need it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "config/run_options.hpp"
#include "history/model.hpp"
#include "history/steps.hpp"

namespace CLI {
class App;
}

namespace cgbench::cli {

// How many steps --flame draws unless --flame-count says.
inline constexpr std::size_t kDefaultStepFlames = 3;

struct StepsFlameInput {
    std::optional<std::string> dir;            // --flame DIR
    std::optional<std::string> build;          // --build CMD
    std::optional<std::string> build_timeout;  // --build-timeout SEC
    std::size_t count = kDefaultStepFlames;    // --flame-count N
    config::RunInput run;                      // --suite (the suite measuring each commit)
    bool suite_from_commit = false;            // --suite-from-commit
};

// Adds --flame, --build, --build-timeout, --flame-count, --suite and --suite-from-commit.
void add_steps_flame_options(CLI::App& cmd, StepsFlameInput& in);

// UsageError when the options do not go together (--build without --flame, --flame without
// --build, a bad --build-timeout or --flame-count), before the history is read.
void check_steps_flame(const StepsFlameInput& in);

// Draws DIR/NAME-COMMIT.svg for each of the worst code steps of `branches` (largest moves
// first, both commits known), saying on stderr what is drawn and what cannot be (a commit
// that does not build, a benchmark without a program there): never an error for that.
// Returns the files written.
std::vector<std::string> draw_step_flames(const StepsFlameInput& in, const history::History& h,
                                          const std::vector<history::BranchSteps>& branches,
                                          const Context& ctx);

}  // namespace cgbench::cli
