# Every dependency comes from a Debian package; scripts/install-deps.sh installs them.
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json 3.10 REQUIRED CONFIG)
find_package(fmt REQUIRED CONFIG)
find_package(spdlog REQUIRED CONFIG)
find_package(Threads REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(tomlplusplus REQUIRED CONFIG)
if(CGBENCH_BUILD_EXAMPLES)
  find_package(benchmark REQUIRED CONFIG)  # Google Benchmark: examples and microbenchmarks
endif()
# RE2 (--filter): Debian's package has a pkg-config file, no CMake one, and ships libre2.a.
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
# libpq (--db postgresql://...): Debian's libpq-dev has a pkg-config file. Its static library
# needs OpenSSL's, Kerberos' and LDAP's beside it, so the static build leaves PostgreSQL out
# (postgresql:// then says so); every other build needs it.
if(NOT CGBENCH_STATIC)
  pkg_check_modules(PQ REQUIRED IMPORTED_TARGET libpq)
endif()

# cgbench_deps: the libraries cgbench_lib links. Debian ships fmt, spdlog and toml++ as
# shared libraries only, so the static build compiles fmt's core once (fmt 9.1, the version
# of Debian 12 and Ubuntu 24.04: cmake/fmt_compiled.cpp; other versions header-only) and uses
# spdlog and toml++ header-only (SPDLOG_FMT_EXTERNAL, TOML_HEADER_ONLY), with SQLite's
# libsqlite3.a, RE2's libre2.a (with what `pkg-config --static` lists beside it: -pthread on
# Debian 12; newer RE2 releases add Abseil's libraries) and glibc, libstdc++ and libgcc
# linked in (-static).
add_library(cgbench_deps INTERFACE)
target_link_libraries(cgbench_deps INTERFACE CLI11::CLI11 nlohmann_json::nlohmann_json
                                             Threads::Threads)
if(CGBENCH_STATIC)
  get_target_property(_fmt_include fmt::fmt-header-only INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_spdlog_include spdlog::spdlog_header_only INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_toml_include tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
  find_library(CGBENCH_SQLITE3_STATIC NAMES libsqlite3.a REQUIRED)
  if(fmt_VERSION VERSION_GREATER_EQUAL 9.1 AND fmt_VERSION VERSION_LESS 9.2)
    add_library(cgbench_fmt STATIC "${CMAKE_CURRENT_LIST_DIR}/fmt_compiled.cpp")
    target_include_directories(cgbench_fmt SYSTEM PUBLIC ${_fmt_include})
    target_link_libraries(cgbench_deps INTERFACE cgbench_fmt)
  else()
    target_link_libraries(cgbench_deps INTERFACE fmt::fmt-header-only)
  endif()
  target_include_directories(cgbench_deps SYSTEM INTERFACE ${_spdlog_include} ${_toml_include})
  target_compile_definitions(cgbench_deps INTERFACE SPDLOG_FMT_EXTERNAL TOML_HEADER_ONLY=1)
  find_library(CGBENCH_RE2_STATIC NAMES libre2.a HINTS ${RE2_STATIC_LIBRARY_DIRS} REQUIRED)
  list(REMOVE_ITEM RE2_STATIC_LDFLAGS -lre2)
  target_include_directories(cgbench_deps SYSTEM INTERFACE ${RE2_STATIC_INCLUDE_DIRS})
  target_compile_options(cgbench_deps INTERFACE ${RE2_STATIC_CFLAGS_OTHER})
  target_link_libraries(cgbench_deps INTERFACE "${CGBENCH_SQLITE3_STATIC}"
                                               "${CGBENCH_RE2_STATIC}" ${RE2_STATIC_LDFLAGS} m)
  target_link_options(cgbench_deps INTERFACE -static)
else()
  target_link_libraries(cgbench_deps INTERFACE fmt::fmt spdlog::spdlog SQLite::SQLite3
                                               tomlplusplus::tomlplusplus PkgConfig::RE2
                                               PkgConfig::PQ)
  target_compile_definitions(cgbench_deps INTERFACE CGBENCH_HAVE_LIBPQ=1)
endif()

find_program(VALGRIND_EXECUTABLE NAMES valgrind)
if(NOT VALGRIND_EXECUTABLE)
  message(WARNING "valgrind not found: cgbench builds, but cannot measure anything. "
                  "Install it with: sudo apt-get install valgrind")
endif()
