#pragma once
// The lines of a pull request whose cost grew, as the forges show findings inline in the diff:
// GitHub workflow commands (`::warning file=...,line=...::...`, github_annotations.cpp) and a
// GitLab code-quality report (artifacts:reports:codequality, gitlab_code_quality.cpp).

#include <cstdint>
#include <string>
#include <vector>

namespace cgbench::report {

// One line whose cost grew in one benchmark.
struct LineAnnotation {
    std::string path;  // relative to the repository's top, '/'-separated
    std::uint32_t line = 0;
    std::string benchmark;
    std::string function;
    std::string text;             // the line's source (for the fingerprint); may be empty
    std::int64_t delta = 0;       // the growth of the line's cost (> 0)
    bool at_least = false;        // delta is a lower bound (compare::LineChange::at_least)
    std::uint64_t base_cost = 0;  // the benchmark's cost in the base, for the share
};

// "+12,345 cost (+3.1% of sum/60000)": what both forms say of `a` (the share of the
// benchmark's base cost; "≥+12,345" for a bound).
std::string annotation_message(const LineAnnotation& a);

// `text` as data of a GitHub workflow command: % CR LF as %25 %0D %0A.
std::string workflow_data(std::string_view text);
// `text` as a property value of a workflow command: workflow_data, and : , as %3A %2C.
std::string workflow_property(std::string_view text);

// One `::warning file=P,line=N,title=T::MESSAGE` per annotation, grouped per file (files in
// order of their largest growth, lines in order of number).
std::string github_annotations(const std::vector<LineAnnotation>& annotations);

// A GitLab code-quality report: a JSON array of {description, check_name, fingerprint,
// severity, location: {path, lines: {begin}}}; "[]" for none.
std::string gitlab_code_quality(const std::vector<LineAnnotation>& annotations);

}  // namespace cgbench::report
