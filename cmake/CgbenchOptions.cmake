# User-facing build switches. Strict warnings are for development and CI; users building a
# release get warnings without -Werror.
option(CGBENCH_BUILD_TESTS "Build the test suite" ON)
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
