# cgbench_sanitizers: ASan + UBSan for cgbench's own code (-DCGBENCH_SANITIZE=ON), or TSan
# (-DCGBENCH_TSAN=ON).
# Programs measured under Valgrind are never sanitized: Valgrind and ASan do not mix.
add_library(cgbench_sanitizers INTERFACE)
if(CGBENCH_FUZZ)
  # Coverage instrumentation for libFuzzer in every first-party target; the fuzz targets
  # add -fsanitize=fuzzer (the runtime and its main) themselves.
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CGBENCH_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "-DCMAKE_C_COMPILER=clang in a separate build directory")
  endif()
  set(CGBENCH_SANITIZE ON)
  target_compile_options(cgbench_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
endif()
if(CGBENCH_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_compile_options(cgbench_sanitizers INTERFACE ${_san})
  target_link_options(cgbench_sanitizers INTERFACE ${_san})
elseif(CGBENCH_TSAN)
  set(_san -fsanitize=thread -fno-omit-frame-pointer)
  target_compile_options(cgbench_sanitizers INTERFACE ${_san})
  target_link_options(cgbench_sanitizers INTERFACE ${_san})
endif()
