# SPDX-License-Identifier: GPL-3.0-or-later
# pinscope refuses bad arguments, its configuration file's contents included, before it starts
# anything: exit 2 with a message naming the flag, as pinscope-cli does, and no file written.
# (--after nan once hung, --size 99999x99999 crashed, a bad topology in --config exited 1 after
# building the window, and --scale nan or a .bmp screenshot were found only after the run.)
#   cmake -DPINSCOPE=... -DOUT=dir -DTOPOLOGIES=dir -P CheckBadArguments.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(expect_refused expected)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${PINSCOPE} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  string(FIND "${err}" "${expected}" at)
  if(NOT status EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "pinscope ${ARGN}: expected exit 2 saying '${expected}'; got ${status}:\n${out}${err}")
  endif()
  string(ASCII 27 escape_character)
  string(FIND "${err}" "${escape_character}" escape)
  if(NOT escape EQUAL -1)
    message(FATAL_ERROR "pinscope ${ARGN} echoed a terminal escape:\n${err}")
  endif()
endfunction()

set(shot --screenshot ${OUT}/shot.png)
expect_refused("--after: nan is not allowed" ${shot} --after nan)
expect_refused("--after: inf is not allowed" ${shot} --after inf)
expect_refused("--scale: nan is not allowed" ${shot} --scale nan)
expect_refused("--size: 99999x99999 is not allowed" ${shot} --size 99999x99999)
expect_refused("--size: 0x0 is not allowed" ${shot} --size 0x0)
expect_refused("within 16384 pixels a side" ${shot} --size 7680x4320 --scale 8)
expect_refused("is not allowed; expected a file name ending in .png, .svg or .pdf" --screenshot ${OUT}/shot.bmp)
expect_refused("--view: bogus is not allowed" ${shot} --view bogus)

expect_refused("it is a character device" ${shot} --config /dev/zero)
execute_process(COMMAND mkfifo ${OUT}/fifo.json RESULT_VARIABLE made)
if(made EQUAL 0)
  expect_refused("it is a FIFO" ${shot} --config ${OUT}/fifo.json)
endif()
file(WRITE ${OUT}/overflow.json "{\"cpu_us_per_sample\": 1e400}")
expect_refused("a number beyond what a double holds" ${shot} --config ${OUT}/overflow.json)
file(WRITE ${OUT}/workers.json "{\"num_workers\": 999}")
expect_refused("num_workers: 999 is not allowed" ${shot} --config ${OUT}/workers.json)
expect_refused("num_workers: 999 is not allowed" --config ${OUT}/workers.json)  # the window too

# Two NUMA nodes numbered alike in the topology the configuration names.
file(READ ${TOPOLOGIES}/2-socket-2-gpu.xml xml)
string(REPLACE "type=\"NUMANode\" os_index=\"1\"" "type=\"NUMANode\" os_index=\"0\"" xml "${xml}")
file(WRITE ${OUT}/same-nodes.xml "${xml}")
file(WRITE ${OUT}/numa.json "{\"device\": \"emulated\", \"topology_xml\": \"${OUT}/same-nodes.xml\", \"bind_workers\": \"remote\"}")
expect_refused("two NUMA nodes numbered 0" ${shot} --config ${OUT}/numa.json)

if(EXISTS ${OUT}/shot.png)
  message(FATAL_ERROR "a refused command wrote ${OUT}/shot.png")
endif()
