# How cgbench's own targets compile fast from cold (CGBENCH_UNITY_BUILD, CgbenchOptions.cmake).
#
# cgbench_unity_build(TARGET BATCH): TARGET's C++ files compile BATCH at a time, each batch one
# translation unit that includes its files in order (CMake's unity build). The batch size
# trades the headers parsed once per batch against parallelism: a batch should be several
# seconds of work, and there should be several batches per CPU. Two files of one batch whose
# file-local names collide (the same helper in two anonymous namespaces) fail to compile, or
# worse, one's call picks the other's better-matching overload: file-local helpers get names
# their file owns, rather than being excluded from the batches (SKIP_UNITY_BUILD_INCLUSION).
function(cgbench_unity_build target batch)
  if(CGBENCH_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  endif()
endfunction()
