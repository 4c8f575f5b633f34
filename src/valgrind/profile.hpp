#pragma once
// Valgrind's parsers fill cgbench's profile model (metrics/profile.hpp); these are its names
// as the valgrind layer and its callers spell them.

#include "metrics/profile.hpp"

namespace cgbench::valgrind {

using metrics::CallCost;
using metrics::FunctionCost;
using metrics::kOtherFunctions;
using metrics::LineCost;
using metrics::Profile;
using metrics::ProfileSum;
// What a parser collects (ParseOptions::cmd_lines is Cachegrind's own).
using ParseOptions = metrics::ProfileRequest;

}  // namespace cgbench::valgrind
