# Writes the man page cgbench.1 from the built binary's --help and each subcommand's --help,
# so the page can never disagree with the program. Run at build time:
#   cmake -DCGBENCH=path/to/cgbench -DOUT=cgbench.1 -DVERSION=x.y.z -P GenerateManPage.cmake

function(cgbench_help out)
  execute_process(COMMAND "${CGBENCH}" ${ARGN} --help OUTPUT_VARIABLE text
                  RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "cgbench ${ARGN} --help exited with ${code}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Roff: a backslash is \e; a line starting with . or ' would be a request, \& keeps it text.
function(cgbench_roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

cgbench_help(top)
# The subcommands are the lines "  NAME   description" after "Subcommands:".
string(REGEX MATCH "Subcommands:\n(.*)" block "${top}")
string(REGEX REPLACE "\n\n.*" "" block "${CMAKE_MATCH_1}")
string(REGEX MATCHALL "(^|\n)  [a-z]+ " names "${block}")
set(subcommands)
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  list(APPEND subcommands "${n}")
endforeach()
if(NOT subcommands)
  message(FATAL_ERROR "no subcommands found in cgbench --help")
endif()

cgbench_roff(top_roff "${top}")
set(page ".TH CGBENCH 1 \"\" \"cgbench ${VERSION}\" \"User Commands\"
.SH NAME
cgbench \\- deterministic performance numbers for CI, measured under Valgrind's Cachegrind
.SH SYNOPSIS
.B cgbench
.I SUBCOMMAND
[\\fIOPTIONS\\fR]
.SH DESCRIPTION
.nf
${top_roff}
.fi
")
foreach(sub IN LISTS subcommands)
  cgbench_help(text ${sub})
  cgbench_roff(text "${text}")
  string(APPEND page ".SH \"cgbench ${sub}\"\n.nf\n${text}\n.fi\n")
endforeach()
string(APPEND page ".SH SEE ALSO
.BR valgrind (1),
.BR cg_annotate (1),
.BR git (1).
The pull-request baseline script: \\fBcgbench-pr --help\\fR.
")
file(WRITE "${OUT}" "${page}")
