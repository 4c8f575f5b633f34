#pragma once
// Where a result was measured, as history compares it. Two things can move counts without
// the code moving them:
// - what the fingerprint's key covers (tool, Valgrind, glibc, geometry, weights, CPU baseline,
//   glibc's selection...): results with different keys are not comparable at all, so each
//   stretch of one key is an epoch of its own;
// - what the key leaves out on purpose (the loader cache, the compilers, cgbench's version):
//   comparable, but a change there explains a small move better than the code does.

#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::history {

// Every difference between two fingerprints that can move counts, named as a person reads
// it: the key's fields ("valgrind: 3.19.0 vs 3.22.0"), then cgbench's version, the loader
// cache and the compilers. Empty when none.
std::vector<std::string> environment_changes(const Fingerprint& before, const Fingerprint& after);

// True when environment_changes(a, b) is empty.
bool same_environment(const Fingerprint& a, const Fingerprint& b);

// One line about a fingerprint, for epoch listings: "cachegrind · valgrind 3.19.0 · glibc
// 2.36 · ci-default · pythonspeed 1/5/35 · cpu portable · GCC: (Debian 12.2.0-14) 12.2.0".
std::string describe(const Fingerprint& f);

}  // namespace cgbench::history
