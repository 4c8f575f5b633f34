#pragma once
// Assembling the run fingerprint (DESIGN §1): what produced the numbers.

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "runner/measurer.hpp"
#include "valgrind/cpu_baseline.hpp"

namespace cgbench::runner {

// The fingerprint of runs made by `measurer` with the Valgrind options `tools` (from
// tool_options_of: Cachegrind's first), with glibc's observed selection. Its tool names the
// distinct tools ("cachegrind", "callgrind", or both joined by '+'); its option list holds
// the behaviour options of each in turn.
Fingerprint build_fingerprint(const Measurer& measurer, const valgrind::GlibcSelection& selection,
                              const std::vector<valgrind::ToolOptions>& tools);

// What built `programs`: the distinct strings of their ELF `.comment` sections, sorted
// (Fingerprint::compilers). Programs that are not ELF (scripts) add nothing.
std::vector<std::string> compilers_of(const std::vector<std::filesystem::path>& programs);

// 16 hex digits identifying the content of the dynamic loader's cache at `path`; "" when it
// cannot be read.
std::string loader_cache_hash(const std::filesystem::path& path);

}  // namespace cgbench::runner
