# cgbench_warnings: an interface target that every first-party target links, so warning
# flags live in one place.
add_library(cgbench_warnings INTERFACE)
target_compile_options(cgbench_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
  -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
if(CGBENCH_WERROR)
  target_compile_options(cgbench_warnings INTERFACE -Werror)
endif()

# Programs under test and examples are plain C/C++: warnings on, but none of the C++-only
# flags above.
add_library(cgbench_program_warnings INTERFACE)
target_compile_options(cgbench_program_warnings INTERFACE -Wall -Wextra)
