# SPDX-License-Identifier: GPL-3.0-or-later
# The commit a build reports: git's when there is a repository, the one `git archive` wrote into
# cmake/ArchiveCommit.txt for a release tarball, and "unknown" for a bare copy of the sources.
#   cmake -DSOURCE_DIR=... -DOUT=dir -P CheckBuildCommit.cmake
file(REMOVE_RECURSE ${OUT})
set(script ${SOURCE_DIR}/cmake/BuildCommit.cmake)

function(commit_of source out)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${source} -DOUT=${OUT}/BuildCommit.h -DBUILD_TYPE=Release -P ${script}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "BuildCommit.cmake failed for ${source}: ${err}")
  endif()
  file(STRINGS ${OUT}/BuildCommit.h line REGEX "PINSCOPE_COMMIT")
  string(REGEX REPLACE ".*PINSCOPE_COMMIT \"(.*)\"" "\\1" commit "${line}")
  set(${out} "${commit}" PARENT_SCOPE)
endfunction()

# This source tree, a git work tree in CI and here: git describe's hash.
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE)
  commit_of(${SOURCE_DIR} commit)
  if(NOT commit MATCHES "${head}")
    message(FATAL_ERROR "the source tree at ${head} was reported as commit '${commit}'")
  endif()
endif()

# Copies outside any repository (git is told not to look above ${OUT}).
set(ENV{GIT_CEILING_DIRECTORIES} ${OUT})
file(MAKE_DIRECTORY ${OUT}/bare/cmake ${OUT}/archive/cmake)
file(COPY ${SOURCE_DIR}/cmake/ArchiveCommit.txt DESTINATION ${OUT}/bare/cmake)
commit_of(${OUT}/bare commit)
if(NOT commit STREQUAL "unknown (built outside git)")
  message(FATAL_ERROR "a copy of the sources without git was reported as commit '${commit}'")
endif()
file(WRITE ${OUT}/archive/cmake/ArchiveCommit.txt "0123456789ab\n")  # as git archive's export-subst writes it
commit_of(${OUT}/archive commit)
if(NOT commit STREQUAL "0123456789ab")
  message(FATAL_ERROR "a release tarball of commit 0123456789ab was reported as commit '${commit}'")
endif()
message(STATUS "git tree, bare copy and tarball each report their commit")
