# SPDX-License-Identifier: GPL-3.0-or-later
# `pinscope --version` and `pinscope-cli --version` say the same version, commit and build type
# (one source: engine/about/ProgramInfo), and the commit is this source tree's when it is a git
# work tree.
#   cmake -DCLI=... [-DDESKTOP=...] -DSOURCE_DIR=... -DVERSION=0.1.0 -P CheckVersions.cmake
set(ENV{QT_QPA_PLATFORM} offscreen)
set(pattern "^([a-z-]+) ([0-9.]+) \\(commit ([^,]+), ([A-Za-z]+) build; CUDA device: (built in|not in this build)\\)\n$")
set(first "")
foreach(program ${CLI} ${DESKTOP})
  execute_process(COMMAND ${program} --version RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "${program} --version exited ${status} and said: '${out}${err}'")
  endif()
  if(NOT CMAKE_MATCH_2 STREQUAL VERSION)
    message(FATAL_ERROR "${program} --version says version ${CMAKE_MATCH_2}, the project is ${VERSION}")
  endif()
  set(commit ${CMAKE_MATCH_3})
  # The line less the program's name (a string, not a list: the line holds a ';').
  string(REGEX REPLACE "^[a-z-]+ " "" rest "${out}")
  if(first STREQUAL "")
    set(first "${rest}")
  elseif(NOT rest STREQUAL first)
    message(FATAL_ERROR "the two programs disagree about their build:\n${first}${rest}")
  endif()
endforeach()
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=7 HEAD OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT commit MATCHES "${head}")
    message(FATAL_ERROR "--version says commit ${commit}; the source tree is at ${head} (rebuild after a checkout)")
  endif()
endif()
message(STATUS "both programs: ${first}")
