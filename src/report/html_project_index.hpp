#pragma once
// `cgbench report --all-projects --html FILE`: the organisation view. One page listing every
// project of a history (a PostgreSQL database holds many; a SQLite file is one) with its
// latest state, each linking to its own report page written beside it. Inline CSS, no
// script, nothing loaded from elsewhere; every name from the database is escaped.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "history/model.hpp"

namespace cgbench::report {

// One project as the index shows it.
struct ProjectSummary {
    std::string name;
    std::string page;  // its report page, relative to the index; empty when it has no runs
    std::size_t runs = 0;
    std::size_t benchmarks = 0;             // benchmarks with results
    std::optional<history::RunRow> latest;  // the newest run recorded
    std::string default_branch;
    std::size_t steps = 0;        // steps on the default branch
    std::size_t regressions = 0;  // those that made it more expensive
};

struct ProjectIndex {
    std::string database;                  // the history, without password
    std::string generated;                 // when the page was made (ISO-8601)
    std::vector<ProjectSummary> projects;  // in the order shown
};

std::string render_html_project_index(const ProjectIndex& index);

}  // namespace cgbench::report
