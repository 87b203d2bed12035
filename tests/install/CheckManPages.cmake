# SPDX-License-Identifier: GPL-3.0-or-later
# The manual pages say every command and flag that --help says: for each program, every --flag in
# its --help (and, for pinscope-cli, in each command's --help) must be in its page, and every
# command must have its own subsection. groff must read the pages without a warning.
#   cmake -DCLI=... -DDESKTOP=... -DMAN_DIR=... [-DGROFF=...] -P CheckManPages.cmake
set(ENV{QT_QPA_PLATFORM} offscreen)

function(help_of program out)
  execute_process(COMMAND ${program} ${ARGN} --help RESULT_VARIABLE status OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${program} ${ARGN} --help exited ${status}: ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Every "--flag" of a help text, in the page as roff writes it (\-\-flag).
function(check_flags help page what)
  string(REGEX MATCHALL "--[a-z][a-z0-9-]*" flags "${help}")
  list(REMOVE_DUPLICATES flags)
  list(LENGTH flags count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${what}: no flag found in --help")
  endif()
  foreach(flag ${flags})
    string(REPLACE "-" "\\-" roff "${flag}")
    string(FIND "${page}" "${roff}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${what}: ${flag} is in --help but not in the manual page")
    endif()
  endforeach()
  message(STATUS "${what}: ${count} flags, all in the page")
endfunction()

file(READ ${MAN_DIR}/pinscope-cli.1 cli_page)
help_of(${CLI} cli_help)
check_flags("${cli_help}" "${cli_page}" "pinscope-cli")
# The commands: the lines of --help's SUBCOMMANDS list.
string(REGEX MATCH "Subcommands:\n(.*)" commands_block "${cli_help}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" commands "\n${CMAKE_MATCH_1}")
list(LENGTH commands command_count)
if(command_count LESS 5)
  message(FATAL_ERROR "found only ${command_count} commands in pinscope-cli --help:\n${cli_help}")
endif()
foreach(command ${commands})
  string(STRIP "${command}" command)
  string(REPLACE "-" "\\\\-" heading "${command}")  # roff writes a hyphen as \-
  if(NOT cli_page MATCHES "\n\\.SS ${heading}\n")
    message(FATAL_ERROR "pinscope-cli ${command}: no subsection in the manual page")
  endif()
  help_of(${CLI} command_help ${command})
  check_flags("${command_help}" "${cli_page}" "pinscope-cli ${command}")
endforeach()

file(READ ${MAN_DIR}/pinscope.1 desktop_page)
help_of(${DESKTOP} desktop_help)
check_flags("${desktop_help}" "${desktop_page}" "pinscope")

if(GROFF)
  foreach(page pinscope-cli.1 pinscope.1)
    execute_process(COMMAND ${GROFF} -man -ww -z ${MAN_DIR}/${page} RESULT_VARIABLE status ERROR_VARIABLE warnings)
    if(NOT status EQUAL 0 OR NOT warnings STREQUAL "")
      message(FATAL_ERROR "groff warns about ${page} (${status}):\n${warnings}")
    endif()
  endforeach()
endif()
