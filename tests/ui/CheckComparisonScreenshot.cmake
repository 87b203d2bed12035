# SPDX-License-Identifier: GPL-3.0-or-later
# pinscope --compare A B --screenshot F: two runs recorded by pinscope-cli compared headless
# (offscreen) and saved; bad runs (a missing file, a file that is not a recording, a missing run, a
# run number below 1, B left out) refused before any window (exit 2), naming what is wrong,
# nothing written and the input left as it was.
#   cmake -DPINSCOPE=... -DCLI=... -DOUT=dir -P CheckComparisonScreenshot.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(pin on off)
  execute_process(
    COMMAND ${CLI} run --seconds 1 --workers 2 --pin-memory ${pin} --no-advice --record ${OUT}/runs.pinscope
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 240)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pinscope-cli run --record exited with ${status}: ${err}")
  endif()
endforeach()
file(MD5 ${OUT}/runs.pinscope recording_before)

# Good: FILE:RUN and FILE (its last run).
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          ${PINSCOPE} --compare ${OUT}/runs.pinscope:1 ${OUT}/runs.pinscope --screenshot ${OUT}/compared.png --size 1400x900
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "pinscope said:\n${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pinscope --compare --screenshot exited with ${status}")
endif()
file(READ ${OUT}/compared.png signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT}/compared.png is not a PNG (starts with ${signature})")
endif()
# The PNG's size is in its IHDR chunk: width and height, 4 bytes each, from byte 16.
file(READ ${OUT}/compared.png size_hex OFFSET 16 LIMIT 8 HEX)
if(NOT size_hex STREQUAL "0000057800000384")
  message(FATAL_ERROR "compared.png is not 1400x900 (IHDR ${size_hex})")
endif()
file(MD5 ${OUT}/runs.pinscope recording_after)
if(NOT recording_before STREQUAL recording_after)
  message(FATAL_ERROR "comparing changed the recording")
endif()

file(WRITE ${OUT}/notes.txt "not a recording\n")
file(MD5 ${OUT}/notes.txt notes_before)
# Each bad case: its arguments after --compare, and what the message must name.
set(cases
  "${OUT}/missing.pinscope|${OUT}/runs.pinscope|missing.pinscope"
  "${OUT}/runs.pinscope|${OUT}/notes.txt|notes.txt"
  "${OUT}/runs.pinscope:1|${OUT}/runs.pinscope:9|run 9"
  "${OUT}/runs.pinscope:0|${OUT}/runs.pinscope|run number from 1"
  "${OUT}/runs.pinscope:1|-|takes two runs")  # - : B left out
foreach(case ${cases})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 a)
  list(GET parts 1 b)
  list(GET parts 2 named)
  set(args --compare ${a})
  if(NOT b STREQUAL "-")
    list(APPEND args ${b})
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} ${args} --screenshot ${OUT}/bad.png
    RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
  if(NOT status EQUAL 2 OR NOT err MATCHES "${named}" OR EXISTS ${OUT}/bad.png)
    message(FATAL_ERROR "--compare ${a} ${b}: expected exit 2 naming '${named}' and no screenshot; got ${status}: ${err}")
  endif()
endforeach()
file(MD5 ${OUT}/notes.txt notes_after)
if(NOT notes_before STREQUAL notes_after)
  message(FATAL_ERROR "a file that is not a recording was changed by reading it")
endif()
