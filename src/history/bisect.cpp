#include "history/bisect.hpp"

#include <algorithm>
#include <set>

namespace cgbench::history {

BisectOutcome bisect(std::size_t n, const std::function<Verdict(std::size_t)>& test) {
    BisectOutcome out;
    out.first_moved = n - 1;
    std::set<std::size_t> skipped;
    while (out.first_moved - out.last_unmoved > 1) {
        // The untested commit between the two nearest the middle.
        const std::size_t middle = out.last_unmoved + (out.first_moved - out.last_unmoved) / 2;
        std::size_t pick = 0;
        bool found = false;
        for (std::size_t d = 0; !found && d <= out.first_moved - out.last_unmoved; ++d) {
            for (const std::size_t c : {middle - std::min(d, middle), middle + d}) {
                if (c > out.last_unmoved && c < out.first_moved && skipped.count(c) == 0) {
                    pick = c;
                    found = true;
                    break;
                }
            }
        }
        if (!found) break;  // everything between was skipped
        ++out.tested;
        switch (test(pick)) {
            case Verdict::Moved:
                out.first_moved = pick;
                break;
            case Verdict::Unmoved:
                out.last_unmoved = pick;
                break;
            case Verdict::Skip:
                skipped.insert(pick);
                break;
        }
    }
    for (const auto s : skipped) {
        if (s > out.last_unmoved && s < out.first_moved) out.skipped.push_back(s);
    }
    return out;
}

}  // namespace cgbench::history
