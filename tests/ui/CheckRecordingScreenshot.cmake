# SPDX-License-Identifier: GPL-3.0-or-later
# pinscope FILE: a run recorded by pinscope-cli, shown headless (offscreen) whole and saved, with the
# exports written from the recording; a file that is not a recording and a missing run refused
# before any window (exit 2), the file left as it was.
#   cmake -DPINSCOPE=... -DCLI=... -DOUT=dir -P CheckRecordingScreenshot.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(
  COMMAND ${CLI} run --seconds 1 --workers 2 --record ${OUT}/run.pinscope
  RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 240)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pinscope-cli run --record exited with ${status}: ${err}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          ${PINSCOPE} ${OUT}/run.pinscope --screenshot ${OUT}/recorded.png --csv ${OUT}/csv --size 1200x800
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "pinscope said:\n${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pinscope FILE --screenshot exited with ${status}")
endif()
file(READ ${OUT}/recorded.png signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT}/recorded.png is not a PNG (starts with ${signature})")
endif()
file(STRINGS ${OUT}/csv/spans.csv rows)
list(LENGTH rows count)
if(count LESS 100)
  message(FATAL_ERROR "spans.csv from the recording holds ${count} lines: the recorded spans did not reach the window")
endif()
file(WRITE ${OUT}/notes.txt "not a recording\n")
file(MD5 ${OUT}/notes.txt before)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --open ${OUT}/notes.txt --screenshot ${OUT}/x.png
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
file(MD5 ${OUT}/notes.txt after)
if(NOT status EQUAL 2 OR NOT err MATCHES "notes.txt" OR NOT before STREQUAL after OR EXISTS ${OUT}/x.png)
  message(FATAL_ERROR "a file that is not a recording: expected exit 2 naming it, unchanged, no screenshot; got ${status}: ${err}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --open ${OUT}/run.pinscope --run 9 --screenshot ${OUT}/x.png
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 2 OR NOT err MATCHES "run 9" OR EXISTS ${OUT}/x.png)
  message(FATAL_ERROR "a missing run: expected exit 2 naming it, got ${status}: ${err}")
endif()
