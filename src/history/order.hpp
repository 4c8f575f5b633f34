#pragma once
// The order of a history: the code's history, not the order in which results arrived. CI
// finishes pipelines out of order and a new user's first act is to measure old commits, so
// a branch's line follows first-parent ancestry, from the facts each run recorded of its
// commit (history/model.hpp, GitInfo):
// - a run's place on its first-parent line (`first_parent_depth`), or, read in a shallow
//   clone, its parent's place plus one when the parent was measured with one;
// - else, in a shallow clone, its commit time (the line is cut there: ancestry unknown);
// - else (recorded before cgbench read these facts) the time it was measured.
// Runs keep the slots the less informed orders give them: runs placed by commit time are
// reordered among the slots they hold in measurement order, then runs with a place on a
// first-parent line among theirs, so a history that gained these facts part-way is still
// read without reshuffling what cannot be placed.

#include "history/model.hpp"

namespace cgbench::history {

// How many conflicts Ordering::conflicts keeps (all are counted).
inline constexpr std::size_t kListedConflicts = 5;

// Puts h.runs in commit order (series already read are remapped and reordered) and fills
// h.ordering: what placed how many runs, and each branch whose line is not one first-parent
// line (two commits at one place, or a commit following another than its parent).
void order_runs(History& h);

}  // namespace cgbench::history
