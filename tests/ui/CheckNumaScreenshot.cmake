# SPDX-License-Identifier: GPL-3.0-or-later
# pinscope --view numa: the headless screenshot of the NUMA tab (offscreen), unlike the live tab's;
# a run that ended before the shot said to have ended; and a wrong tab refused.
#   cmake -DPINSCOPE=... -DOUT=dir -P CheckNumaScreenshot.cmake
file(REMOVE_RECURSE ${OUT})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          ${PINSCOPE} --screenshot ${OUT}/numa.png --view numa --after 1 --size 1200x800
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "pinscope said:\n${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pinscope --screenshot --view numa exited with ${status}")
endif()
file(READ ${OUT}/numa.png signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT}/numa.png is not a PNG (starts with ${signature})")
endif()
file(SIZE ${OUT}/numa.png size)
if(size LESS 20000)
  message(FATAL_ERROR "${OUT}/numa.png is only ${size} bytes: the window was not drawn")
endif()
# The same run shown on the live tab must look different: --view really picked the NUMA tab.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          ${PINSCOPE} --screenshot ${OUT}/live.png --view live --after 1 --size 1200x800
  RESULT_VARIABLE status TIMEOUT 240)
file(MD5 ${OUT}/numa.png numa_hash)
file(MD5 ${OUT}/live.png live_hash)
if(NOT status EQUAL 0 OR numa_hash STREQUAL live_hash)
  message(FATAL_ERROR "--view live exited with ${status} or drew the same picture as --view numa")
endif()
# A run that ends before the shot: the screenshot shows the ended run, and says so (the NUMA tab's
# "pinned 0 B" is then "run ended: pinned 0 B now, peak ..."), rather than a run that pinned nothing.
file(WRITE ${OUT}/short.json "{\"seconds\": 0.5}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
          ${PINSCOPE} --screenshot ${OUT}/ended.png --view numa --after 2 --config ${OUT}/short.json
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT status EQUAL 0 OR NOT err MATCHES "the run ended after [0-9.]+ s, before the screenshot")
  message(FATAL_ERROR "a run shorter than --after: expected exit 0 and a note that it ended, got ${status}: ${err}")
endif()
if(NOT EXISTS ${OUT}/ended.png)
  message(FATAL_ERROR "a run shorter than --after: no screenshot")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --screenshot ${OUT}/x.png --view plots
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 2 OR NOT err MATCHES "--view: plots is not allowed; expected live or numa")
  message(FATAL_ERROR "--view plots: expected exit 2 and a reason, got ${status}: ${err}")
endif()
