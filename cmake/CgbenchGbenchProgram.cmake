# cgbench_gbench_program(TARGET OUTPUT_NAME OUTPUT_DIR SOURCE [COMPILE_OPTIONS...]): a Google
# Benchmark binary that the tests measure, OUTPUT_DIR/OUTPUT_NAME, linked with whichever
# benchmark::benchmark find_package(benchmark) found (Debian's, or the newer one
# tests/gbench/ builds), with -O2 -g and the warnings of every test program. The library's
# version is in CGBENCH_BENCHMARK_VERSION_MAJOR and _MINOR, for sources that use newer API,
# and in OUTPUT_DIR/benchmark-version, for the tests that run the binary.
function(cgbench_gbench_program target output_name output_dir source)
  add_executable(${target} ${source})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output_name}
                        RUNTIME_OUTPUT_DIRECTORY "${output_dir}")
  target_compile_options(${target} PRIVATE -O2 -g ${ARGN})
  target_compile_definitions(${target} PRIVATE
    CGBENCH_BENCHMARK_VERSION_MAJOR=${benchmark_VERSION_MAJOR}
    CGBENCH_BENCHMARK_VERSION_MINOR=${benchmark_VERSION_MINOR})
  target_link_libraries(${target} PRIVATE benchmark::benchmark cgbench_program_warnings)
  file(WRITE "${output_dir}/benchmark-version" "${benchmark_VERSION}\n")
endfunction()
