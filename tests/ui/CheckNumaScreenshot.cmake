# pinscope --view numa: the headless screenshot of the NUMA tab (offscreen), and a wrong tab refused.
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
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} --screenshot ${OUT}/x.png --view plots
  RESULT_VARIABLE status ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 2 OR NOT err MATCHES "--view: plots is not a tab")
  message(FATAL_ERROR "--view plots: expected exit 2 and a reason, got ${status}: ${err}")
endif()
