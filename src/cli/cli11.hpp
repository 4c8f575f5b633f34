#pragma once
// CLI11, as every file of the command-line layer includes it. GCC 12 reports a null
// dereference inside CLI11's own string helpers once they are inlined into a large
// translation unit (a batch of the unity build, or under ThreadSanitizer): a false positive in
// code that is not ours, so -Wnull-dereference is off for CLI11 and stays on for our code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
