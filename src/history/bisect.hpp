#pragma once
// The search of `cgbench bisect`: the first commit of a line (GOOD first, BAD last) whose
// measurement moved, by halving. Counts are exact, so a commit's verdict needs one
// measurement and no statistics; a commit that cannot be measured (its build fails) is
// skipped as `git bisect skip` does, and the answer is then a range.

#include <cstddef>
#include <functional>
#include <vector>

namespace cgbench::history {

enum class Verdict {
    Unmoved,  // measures like GOOD, within the threshold
    Moved,    // beyond the threshold, like BAD
    Skip,     // could not be measured
};

struct BisectOutcome {
    std::size_t last_unmoved = 0;  // the newest commit known to measure like GOOD
    std::size_t first_moved = 0;   // the oldest commit known to have moved
    // Commits between the two that could not be measured: when not empty the change is in
    // one of them or in first_moved.
    std::vector<std::size_t> skipped;
    std::size_t tested = 0;  // how many times `test` was asked
};

// Searches commits 0 (GOOD, unmoved) .. n-1 (BAD, moved), n >= 2, asking `test` about as few
// commits as halving allows, each at most once.
BisectOutcome bisect(std::size_t n, const std::function<Verdict(std::size_t)>& test);

}  // namespace cgbench::history
