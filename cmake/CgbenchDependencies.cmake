# Every dependency comes from a Debian package; scripts/install-deps.sh installs them.
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json 3.10 REQUIRED CONFIG)
find_package(fmt REQUIRED CONFIG)
find_package(spdlog REQUIRED CONFIG)
find_package(Threads REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(tomlplusplus REQUIRED CONFIG)
# RE2 (--filter): Debian's package has a pkg-config file, no CMake one.
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
find_package(benchmark REQUIRED CONFIG)  # Google Benchmark: examples and microbenchmarks

find_program(VALGRIND_EXECUTABLE NAMES valgrind)
if(NOT VALGRIND_EXECUTABLE)
  message(WARNING "valgrind not found: cgbench builds, but cannot measure anything. "
                  "Install it with: sudo apt-get install valgrind")
endif()
