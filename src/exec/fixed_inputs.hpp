#pragma once
// The fixed-inputs library (fixed_inputs.c: the clock and entropy a program sees with
// --fixed-clock and --fixed-random). It is built as a shared library and embedded in cgbench
// at build time, so every cgbench, a static one too, carries it; the sandbox writes it to
// /cgbench/lib, a run without namespaces to the private staging directory.

#include <string_view>

namespace cgbench::exec {

// The library's bytes (an ELF shared object for this machine).
std::string_view fixed_inputs_library();

// The variable that tells the library what to fix ("clock", "random", "clock,random"); cgbench
// sets it, --env cannot.
inline constexpr std::string_view kFixedVariable = "CGBENCH_FIXED";

}  // namespace cgbench::exec
