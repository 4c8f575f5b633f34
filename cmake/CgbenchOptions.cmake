# User-facing build switches. Strict warnings are for development and CI; users building a
# release get warnings without -Werror.
option(CGBENCH_BUILD_TESTS "Build the test suite" ON)
option(CGBENCH_BUILD_EXAMPLES "Build the examples and bench/ (need Google Benchmark)" ON)
# One executable that needs nothing at run time but Valgrind and git: glibc, libstdc++,
# SQLite, fmt, spdlog and toml++ linked in. What CI installs and caches
# (scripts/ci-install-cgbench.sh), so a cache restored on a fresh runner starts.
option(CGBENCH_STATIC "Link cgbench statically (self-contained, for CI caches)" OFF)
if(CGBENCH_BUILD_TESTS AND NOT CGBENCH_BUILD_EXAMPLES)
  message(STATUS "CGBENCH_BUILD_TESTS measures the examples: building them too")
  set(CGBENCH_BUILD_EXAMPLES ON CACHE BOOL "" FORCE)
endif()
option(CGBENCH_WERROR "Treat compiler warnings as errors" OFF)
option(CGBENCH_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(CGBENCH_TSAN "Build with ThreadSanitizer (-j runs benchmarks from worker threads)" OFF)
if(CGBENCH_SANITIZE AND CGBENCH_TSAN)
  message(FATAL_ERROR "CGBENCH_SANITIZE and CGBENCH_TSAN cannot be combined; use two build directories")
endif()
option(CGBENCH_CLANG_TIDY "Run clang-tidy while compiling" OFF)
option(CGBENCH_FUZZ "Build the libFuzzer targets in fuzz/ (clang; implies ASan + UBSan)" OFF)

if(CGBENCH_CLANG_TIDY)
  find_program(CLANG_TIDY_EXE NAMES clang-tidy clang-tidy-14 REQUIRED)
  set(CMAKE_CXX_CLANG_TIDY "${CLANG_TIDY_EXE}")
endif()

# Cold builds (the first run, the test suite in CI, the platform lanes) dominate build time:
# the library compiles in batches of files (a unity build), so the heavy headers every file
# includes (the standard library, fmt, nlohmann/json, CLI11) are parsed, and their templates
# compiled, once per batch instead of once per file (cmake/CgbenchBuildSpeed.cmake). A
# one-file change recompiles its batch: -DCGBENCH_UNITY_BUILD=OFF where that matters more.
option(CGBENCH_UNITY_BUILD "Compile the library in batches of files" ON)
