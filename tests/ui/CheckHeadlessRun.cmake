# SPDX-License-Identifier: GPL-3.0-or-later
# The headless run of the pinscope window under a real X server (Xvfb): it must exit 0 and leave
# a PNG screenshot and the CSV exports.
#   cmake -DXVFB_RUN=... -DPINSCOPE=... -DOUT=dir -P CheckHeadlessRun.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=QT_QPA_PLATFORM
          ${XVFB_RUN} -a -s "-screen 0 1920x1080x24"
          ${PINSCOPE} --screenshot ${OUT}/pinscope.png --after 2 --csv ${OUT}/csv
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
message(STATUS "pinscope said:\n${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pinscope --screenshot under xvfb-run exited with ${status}")
endif()
if(NOT err MATCHES "platform xcb")
  message(FATAL_ERROR "pinscope did not run on the X server (expected 'platform xcb' in its output)")
endif()
file(READ ${OUT}/pinscope.png signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${OUT}/pinscope.png is not a PNG (starts with ${signature})")
endif()
file(SIZE ${OUT}/pinscope.png size)
if(size LESS 20000)
  message(FATAL_ERROR "${OUT}/pinscope.png is only ${size} bytes: the window was not drawn")
endif()
file(STRINGS ${OUT}/csv/spans.csv lines LIMIT_COUNT 2)
list(GET lines 0 header)
if(NOT header STREQUAL "batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node")
  message(FATAL_ERROR "spans.csv starts with '${header}'")
endif()
list(LENGTH lines count)
if(count LESS 2)
  message(FATAL_ERROR "spans.csv has no spans")
endif()
